// The role order of a stored path (SPEC H1): after the system prompt user and assistant alternate.
// Two user messages in a row mean a turn failed without an answer (before that was repaired) or
// two processes wrote one session at once (interleaved turns).
import type { Message } from "@iris/llm";

export interface ShapeReport {
  /** 1-based positions of a user message that follows another user message. */
  userPairs: number[];
  /** The path ends with a user message that got no answer (the next turn repairs it). */
  endsUnanswered: boolean;
}

export function shapeOf(messages: readonly Message[]): ShapeReport {
  const userPairs: number[] = [];
  for (let i = 1; i < messages.length; i++)
    if (messages[i]?.role === "user" && messages[i - 1]?.role === "user") userPairs.push(i + 1);
  return { userPairs, endsUnanswered: messages[messages.length - 1]?.role === "user" };
}
