// A turn that ended without an answer (an error such as 401 or all routes down, or a process
// killed while streaming) leaves the stored history ending in a lone user message. The next turn
// would store a second user message right after it, a shape providers reject (SPEC H1). So the
// next turn first persists a short assistant note saying the earlier message got no answer.
import { type AssistantMessage, type Message, type Origin, ZERO_USAGE } from "@iris/llm";
import type { TurnEnv } from "./env.js";

export const TURN_REPAIR_ORIGIN: Origin = {
  provider: "iris",
  apiMode: "chat_completions",
  model: "turn-repair",
};

export const NO_ANSWER_NOTE =
  "(No answer: the previous turn ended before the model replied, by an error or an interruption.)";

export function noAnswerNote(): AssistantMessage {
  return {
    role: "assistant",
    parts: [{ type: "text", text: NO_ANSWER_NOTE }],
    origin: TURN_REPAIR_ORIGIN,
    usage: { ...ZERO_USAGE },
    stopReason: "end",
  };
}

/** Appends the note when `history` ends with a user message; returns whether it did. */
export async function repairLoneUser(env: TurnEnv, history: readonly Message[]): Promise<boolean> {
  if (history[history.length - 1]?.role !== "user") return false;
  await env.log.append(noAnswerNote());
  env.events.emit("status", {
    level: "info",
    message: "the previous turn got no answer; a note saying so was stored before this message",
  });
  return true;
}
