// What the user saw of a reply an interrupt cut (SPEC L7): a new message, a stop command or a
// signal abandons the model call at once, but the text already streamed to the user stays, as
// an assistant message marked interrupted, so the chat and the history agree and the next turn
// follows it (no "(No answer: …)" note). Tool calls and reasoning of the cut reply are dropped:
// only finished replies may run tools. A failed attempt's text (a retry) is never kept.
import { API_MODES, type AssistantMessage, ZERO_USAGE } from "@iris/llm";
import type { TurnEnv } from "./env.js";
import type { StepSnapshot, TurnState } from "./types.js";

export const INTERRUPTED_MARK = "*(interrupted)*";

/** The kept text as stored and shown: what was streamed, then the mark on a line of its own. */
export function interruptedText(shown: string): string {
  return `${shown.trimEnd()}\n\n${INTERRUPTED_MARK}`;
}

/** Stores `shown` (when there is any) as the interrupted reply; returns the text stored. */
export async function keepShown(
  env: TurnEnv,
  state: TurnState,
  snap: StepSnapshot,
  shown: string,
): Promise<string | undefined> {
  if (shown.trim() === "") return undefined;
  const text = interruptedText(shown);
  const { provider, model, apiMode } = snap.route;
  const mode = API_MODES.find((m) => m === apiMode) ?? "chat_completions";
  const message: AssistantMessage = {
    role: "assistant",
    parts: [{ type: "text", text }],
    origin: { provider, apiMode: mode, model },
    usage: { ...ZERO_USAGE },
    stopReason: "end",
  };
  await env.log.append(message);
  state.messages.push(message);
  return text;
}
