// OpenRouter's `reasoning_details`: the upstream's own reasoning items (Anthropic thinking text
// with its signature, encrypted reasoning, summaries), which OpenRouter asks to get back unchanged
// on the next request, or a Claude tool loop loses its thinking. They are kept as the reasoning
// part's raw item, stamped with the issuing endpoint, so shaping sends them back only to the same
// route and endpoint (SPEC H4) and the wire writes them back only where the route takes them.
import type { AssistantPart } from "../../types.js";

export type ReasoningDetail = Record<string, unknown>;

/** Streamed details arrive in pieces keyed by `index`: text and summary concatenate, the rest is latest. */
export class ReasoningDetails {
  private readonly items: ReasoningDetail[] = [];
  private readonly byIndex = new Map<unknown, ReasoningDetail>();

  add(pieces: readonly unknown[]): void {
    for (const piece of pieces) {
      if (typeof piece !== "object" || piece === null || Array.isArray(piece)) continue;
      const d = piece as ReasoningDetail;
      const key = d.index ?? `at-${this.items.length}`;
      const open = this.byIndex.get(key);
      if (!open || open.type !== d.type) {
        const item = { ...d };
        this.items.push(item);
        this.byIndex.set(key, item);
        continue;
      }
      for (const [k, v] of Object.entries(d)) {
        if ((k === "text" || k === "summary") && typeof v === "string")
          open[k] = `${typeof open[k] === "string" ? open[k] : ""}${v}`;
        else if (v !== null && v !== undefined) open[k] = v;
      }
    }
  }

  list(): ReasoningDetail[] {
    return this.items;
  }
}

/** The details become the raw item of the reply's reasoning part (one is made when none streamed). */
export function attachDetails(parts: AssistantPart[], details: readonly ReasoningDetail[]): AssistantPart[] {
  if (details.length === 0) return parts;
  const raw = { reasoning_details: [...details] };
  const at = parts.findIndex((p) => p.type === "reasoning");
  if (at < 0) return [{ type: "reasoning", text: "", raw }, ...parts];
  return parts.map((p, i) => (i === at && p.type === "reasoning" ? { ...p, raw } : p));
}

/** The details an assistant message's reasoning parts carry, in order. */
export function detailsOf(parts: readonly AssistantPart[]): unknown[] {
  const out: unknown[] = [];
  for (const p of parts) {
    const d = p.type === "reasoning" ? p.raw?.reasoning_details : undefined;
    if (Array.isArray(d)) out.push(...d);
  }
  return out;
}
