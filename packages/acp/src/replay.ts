// `session/load`: the stored conversation replayed as the `session/update`s an editor would have
// seen live, so its thread shows the whole history (user text, answers, thoughts, tool calls with
// their results and final status).
import type { SessionUpdate } from "@agentclientprotocol/sdk/unstable";
import type { Message, ToolResultMessage, UserPart } from "@iris/llm";
import { describeToolCall } from "./tool-calls.js";
import { planOf } from "./turn-updates.js";

const REPLAY_RESULT_CHARS = 2000;

function textOf(content: string | UserPart[]): string {
  return typeof content === "string"
    ? content
    : content.map((p) => (p.type === "text" ? p.text : `[image ${p.mediaType}]`)).join("\n");
}

export function replayUpdates(history: readonly Message[], cwd: string): SessionUpdate[] {
  const results = new Map<string, ToolResultMessage>();
  for (const m of history) if (m.role === "tool") results.set(m.callId, m);
  const out: SessionUpdate[] = [];
  for (const m of history) {
    if (m.role === "user") {
      const text = textOf(m.content);
      if (text) out.push({ sessionUpdate: "user_message_chunk", content: { type: "text", text } });
    } else if (m.role === "assistant") {
      for (const part of m.parts) {
        if (part.type === "reasoning" && part.text)
          out.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: part.text } });
        else if (part.type === "text" && part.text)
          out.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: part.text } });
        else if (part.type === "toolCall") {
          const view = describeToolCall(part.name, part.argumentsJson, cwd);
          const result = results.get(part.callId);
          const text = result ? textOf(result.content) : "no result was recorded";
          out.push({
            sessionUpdate: "tool_call",
            toolCallId: part.callId,
            title: view.title,
            kind: view.kind,
            status: result && !result.isError ? "completed" : "failed",
            locations: view.locations,
            content: [
              ...view.diffs.map((d) => ({ type: "diff" as const, ...d })),
              {
                type: "content" as const,
                content: { type: "text" as const, text: text.slice(0, REPLAY_RESULT_CHARS) },
              },
            ],
            rawInput: view.rawInput,
          });
          if (part.name === "todo" && result && !result.isError) {
            const plan = planOf(text);
            if (plan) out.push(plan);
          }
        }
      }
    }
  }
  return out;
}
