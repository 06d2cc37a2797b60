// What a chat that shows drafts (the web chat) says before the model's first token (SPEC G1): a
// stalled or retried model call must never look like a dead, empty bubble.
import type { HostEvent } from "@iris/host";

export function draftStatus(e: HostEvent): string | undefined {
  if (e.name === "llm_call_started") return "⏳ waiting for the model…";
  if (e.name === "waiting") return `⏳ waiting for the model (${e.payload.seconds} s)…`;
  // The model client's own words: "… timed out, retrying in 2 s (2/3)".
  if (e.name === "status" && /retrying/.test(e.payload.message)) return `⏳ ${e.payload.message}`;
  return undefined;
}
