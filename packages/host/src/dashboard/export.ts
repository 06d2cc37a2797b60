// A session's active path as a file: `jsonl` one canonical message (llm types) per line, or
// `sharegpt` one line {id, title, model, conversations: [{from, value}]} like batch trajectories
// (tool calls as <tool_call>, results as <tool_response>, as `iris sessions export --format jsonl`).
import { messagesOfPath } from "@iris/agent";
import { assistantText, type Message, textOf } from "@iris/llm";
import type { SessionRow, Store } from "@iris/store";

export type SessionExportFormat = "jsonl" | "sharegpt";

const toolText = (m: Extract<Message, { role: "tool" }>) =>
  typeof m.content === "string" ? m.content : textOf(m.content);

function parsed(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

function shareGpt(s: SessionRow, messages: readonly Message[]): object {
  const conversations: { from: string; value: string }[] = [];
  if (s.systemPrompt) conversations.push({ from: "system", value: s.systemPrompt });
  for (const m of messages) {
    if (m.role === "user") conversations.push({ from: "human", value: textOf(m.content) });
    else if (m.role === "assistant") {
      const calls = m.parts.flatMap((p) =>
        p.type === "toolCall"
          ? [
              `<tool_call>\n${JSON.stringify({ name: p.name, arguments: parsed(p.argumentsJson) })}\n</tool_call>`,
            ]
          : [],
      );
      conversations.push({ from: "gpt", value: [assistantText(m), ...calls].filter(Boolean).join("\n") });
    } else
      conversations.push({
        from: "tool",
        value: `<tool_response>\n${JSON.stringify({ name: m.toolName, content: parsed(toolText(m)) })}\n</tool_response>`,
      });
  }
  return { id: s.id, title: s.title, model: s.model, provider: s.provider, conversations };
}

export async function exportSessionAs(
  store: Store,
  s: SessionRow,
  format: SessionExportFormat,
): Promise<string> {
  return exportMessagesAs(s, messagesOfPath(await store.activePath(s.id)), format);
}

/** `messages` (a session's history as it stands, Session.history()) as the file. */
export function exportMessagesAs(
  s: SessionRow,
  messages: readonly Message[],
  format: SessionExportFormat,
): string {
  if (format === "sharegpt") return `${JSON.stringify(shareGpt(s, messages))}\n`;
  return messages.map((m) => `${JSON.stringify(m)}\n`).join("");
}
