// Prompt-cache markers on Chat Completions routes whose upstream needs them (SPEC P6): an
// aggregator's Anthropic or Gemini model caches only up to a `cache_control` on a content part.
// Like the Anthropic adapter: the system prompt and the newest message, at most 4 in all; the
// marker moves only on the newest message, so each request repeats the previous one's bytes.
import type { Runtime } from "../../runtime.js";
// Upstream is Anthropic: the same look-back from a marker for an earlier cache entry.
import { LOOKBACK_BLOCKS } from "../anthropic/cache.js";
import type { WireMessage } from "./convert-messages.js";

const EPHEMERAL = { type: "ephemeral" } as const;

export function wantsCacheMarkers(runtime: Runtime, model: string): boolean {
  if (runtime.compat.promptCache === false) return false;
  const m = model.toLowerCase();
  return (runtime.compat.cacheMarkerModels ?? []).some((prefix) => m.startsWith(prefix));
}

/** The message with its last text part marked (a string content becomes one text part). */
function marked(message: WireMessage): WireMessage {
  const content = message.content;
  if (typeof content === "string") {
    if (content === "") return message;
    return { ...message, content: [{ type: "text", text: content, cache_control: EPHEMERAL }] };
  }
  if (!Array.isArray(content)) return message;
  for (let i = content.length - 1; i >= 0; i--) {
    const part = content[i] as Record<string, unknown>;
    if (part.type === "text" && part.text !== "") {
      const copy = content.slice();
      copy[i] = { ...part, cache_control: EPHEMERAL };
      return { ...message, content: copy };
    }
  }
  return message;
}

/** Marks the newest message at or before `from` that can carry a marker. */
function markNewest(out: WireMessage[], from: number): void {
  for (let i = from; i > 0; i--) {
    const m = out[i] as WireMessage;
    const next = marked(m);
    if (next !== m) {
      out[i] = next;
      return;
    }
  }
}

/**
 * Marks the system message and the newest message that can carry a marker. When the newest
 * round (the last assistant message's calls and the results after it) is longer than the
 * look-back, the previous request's marked message is marked again, so its entry is still read.
 */
export function applyChatCacheMarkers(messages: WireMessage[]): WireMessage[] {
  const out = messages.slice();
  const first = out[0];
  if (first?.role === "system") out[0] = marked(first);
  markNewest(out, out.length - 1);
  const a = out.map((m) => m.role).lastIndexOf("assistant");
  if (a > 1) {
    const wireCalls = out[a]?.tool_calls;
    const calls = Array.isArray(wireCalls) ? wireCalls.length : 0;
    if (calls + 1 + (out.length - 1 - a) >= LOOKBACK_BLOCKS) markNewest(out, a - 1);
  }
  return out;
}
