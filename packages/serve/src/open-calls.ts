// The calls of the newest assistant message that no tool result answers yet: what a client's
// tool results (chat `tool` messages, Responses `function_call_output` items) may answer.
import { type Message, type ToolCallPart, toolCallsOf } from "@iris/llm";

export function openCalls(history: readonly Message[]): Map<string, ToolCallPart> {
  const answered = new Set<string>();
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m?.role === "tool") answered.add(m.callId);
    else if (m?.role === "assistant")
      return new Map(
        toolCallsOf(m)
          .filter((c) => !answered.has(c.callId))
          .map((c) => [c.callId, c]),
      );
    else break;
  }
  return new Map();
}
