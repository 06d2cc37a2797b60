// What a chat that shows drafts (the web chat) says before the model's first token (SPEC G1): a
// stalled or retried model call must never look like a dead, empty bubble.
import type { TurnChange } from "@iris/host";

export function draftStatus(change: TurnChange): string | undefined {
  if (change.kind === "waiting")
    return change.seconds ? `⏳ waiting for the model (${change.seconds} s)…` : "⏳ waiting for the model…";
  // The model client's own words: "… timed out, retrying in 2 s (2/3)".
  if (change.kind === "notice" && /retrying/.test(change.message)) return `⏳ ${change.message}`;
  return undefined;
}
