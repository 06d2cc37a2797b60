// Anthropic's prompt cache by blocks, as documented: each `cache_control` marker writes an entry
// for the prompt up to and including its block (tools, then system, then messages); a marker
// reads the longest earlier entry at its own block or at most LOOKBACK_BLOCKS blocks before it.
// An entry further back is not found, so a round with many blocks misses unless a marker sits
// near the previous request's entry. Markers themselves are not part of what is cached.
import { createHash } from "node:crypto";
import { isObject, type Json } from "../validate/rule.js";

export const LOOKBACK_BLOCKS = 20;
const REMEMBERED_ENTRIES = 4_096;

interface Flat {
  /** Prefix hash through block i. */
  hashes: string[];
  /** Prefix size in characters through block i. */
  sizes: number[];
  markers: number[];
}

function withoutMarker(block: unknown): unknown {
  if (!isObject(block) || !("cache_control" in block)) return block;
  const { cache_control: _marker, ...rest } = block;
  return rest;
}

function flatten(body: Json): Flat {
  const blocks: { canonical: string; marked: boolean }[] = [];
  const add = (where: string, block: unknown): void => {
    blocks.push({
      canonical: JSON.stringify([where, withoutMarker(block)]),
      marked: isObject(block) && block.cache_control !== undefined,
    });
  };
  for (const tool of Array.isArray(body.tools) ? body.tools : []) add("tool", tool);
  if (typeof body.system === "string") add("system", { type: "text", text: body.system });
  else for (const b of Array.isArray(body.system) ? body.system : []) add("system", b);
  const messages = Array.isArray(body.messages) ? body.messages : [];
  messages.forEach((m: unknown, i) => {
    if (!isObject(m)) return;
    const where = `${i}:${String(m.role)}`;
    if (typeof m.content === "string") add(where, { type: "text", text: m.content });
    else for (const b of Array.isArray(m.content) ? m.content : []) add(where, b);
  });
  // What else changes the cached prompt: the model, thinking settings and the tool choice.
  let hash = JSON.stringify([body.model, body.thinking ?? null, body.tool_choice ?? null]);
  let size = 0;
  const flat: Flat = { hashes: [], sizes: [], markers: [] };
  blocks.forEach((b, i) => {
    hash = createHash("sha256").update(hash).update(b.canonical).digest("hex");
    size += b.canonical.length;
    flat.hashes.push(hash);
    flat.sizes.push(size);
    if (b.marked) flat.markers.push(i);
  });
  return flat;
}

export class AnthropicCache {
  private readonly entries = new Set<string>();

  /** The share of the prompt read from the cache (0–1), then the entries this request writes. */
  account(body: Json): { readShare: number; marked: boolean } {
    const flat = flatten(body);
    const total = flat.sizes.at(-1) ?? 0;
    let best = -1;
    for (const marker of flat.markers) {
      for (let j = marker; j >= Math.max(0, marker - LOOKBACK_BLOCKS); j--) {
        if (this.entries.has(flat.hashes[j] as string)) {
          best = Math.max(best, j);
          break;
        }
      }
    }
    for (const marker of flat.markers) this.remember(flat.hashes[marker] as string);
    const readShare = best >= 0 && total > 0 ? (flat.sizes[best] as number) / total : 0;
    return { readShare, marked: flat.markers.length > 0 };
  }

  private remember(hash: string): void {
    this.entries.delete(hash);
    this.entries.add(hash);
    if (this.entries.size > REMEMBERED_ENTRIES) {
      const oldest = this.entries.values().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
