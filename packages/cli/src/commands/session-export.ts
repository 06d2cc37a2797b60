// `iris sessions export ID --format md|json|jsonl`. The conversation is the session's active path.
//   md     a readable transcript: user and assistant turns, tool calls and (shortened) results
//   json   the session's metadata and the canonical messages (llm types), as stored
//   jsonl  one line, ShareGPT-style like batch trajectories and Hermes Agent's: {id, title, model,
//          conversations: [{from: system|human|gpt|tool, value}]}; tool calls are
//          <tool_call>{"name","arguments"}</tool_call> in the gpt value, results <tool_response>

import type { SessionRow } from "@iris/host";
import { exportMessagesAs } from "@iris/host";
import { assistantText, type Message, textOf } from "@iris/llm";

export type ExportFormat = "md" | "json" | "jsonl";
export const EXPORT_FORMATS: readonly ExportFormat[] = ["md", "json", "jsonl"];

const toolText = (m: Extract<Message, { role: "tool" }>) =>
  typeof m.content === "string" ? m.content : textOf(m.content);

function markdown(s: SessionRow, messages: readonly Message[]): string {
  const out = [
    `# ${s.title ?? `Session ${s.id}`}`,
    "",
    `*${s.id} · ${s.provider ?? "?"}/${s.model ?? "?"} · ${new Date(s.startedAt).toISOString()}*`,
  ];
  for (const m of messages) {
    if (m.role === "user") out.push("", "## User", "", textOf(m.content));
    else if (m.role === "assistant") {
      const text = assistantText(m);
      out.push("", "## Assistant");
      if (text) out.push("", text);
      for (const p of m.parts)
        if (p.type === "toolCall")
          out.push("", `**Tool call** \`${p.name}\``, "", "```json", p.argumentsJson, "```");
    } else {
      const body = toolText(m);
      const cut =
        body.length > 4000 ? `${body.slice(0, 4000)}\n… (${body.length - 4000} more characters)` : body;
      out.push("", `**Tool result** \`${m.toolName}\`${m.isError ? " (error)" : ""}`, "", "```", cut, "```");
    }
  }
  return `${out.join("\n")}\n`;
}

/** `messages`: the session's active path as messages (Session.history()). */
export function exportSession(s: SessionRow, messages: readonly Message[], format: ExportFormat): string {
  if (format === "md") return markdown(s, messages);
  if (format === "jsonl") return exportMessagesAs(s, messages, "sharegpt");
  const meta = {
    id: s.id,
    title: s.title,
    source: s.source,
    provider: s.provider,
    model: s.model,
    cwd: s.cwd,
    started_at: new Date(s.startedAt).toISOString(),
    ended_at: s.endedAt ? new Date(s.endedAt).toISOString() : null,
    end_reason: s.endReason,
    parent_session_id: s.parentSessionId,
    system_prompt: s.systemPrompt,
  };
  return `${JSON.stringify({ ...meta, messages }, null, 2)}\n`;
}
