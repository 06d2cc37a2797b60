// Prompt-cache markers on Chat Completions routes whose upstream needs them (SPEC P6): an
// aggregator's Anthropic or Gemini model caches only up to a `cache_control` on a content part.
// Like the Anthropic adapter: the system prompt and the newest message, at most 4 in all; the
// marker moves only on the newest message, so each request repeats the previous one's bytes.
import type { Runtime } from "../../runtime.js";
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

/** Marks the system message and the newest message that can carry a marker. */
export function applyChatCacheMarkers(messages: WireMessage[]): WireMessage[] {
  const out = messages.slice();
  const first = out[0];
  if (first?.role === "system") out[0] = marked(first);
  for (let i = out.length - 1; i > 0; i--) {
    const m = out[i] as WireMessage;
    const next = marked(m);
    if (next !== m) {
      out[i] = next;
      break;
    }
  }
  return out;
}
