// On resume, the last few exchanges are shown again so the user sees where the conversation
// stopped: each user message, the tools that ran (one line each) and the answer, shortened.

import { assistantText, type Message, textOf } from "@iris/llm";
import { truncateToWidth } from "./width.js";

const ANSWER_LINES = 12;

/** `messages`: the conversation as it stands (Session.history()). */
export function replayLines(messages: readonly Message[], exchanges: number, width: number): string[] {
  const userAt = messages.flatMap((m, i) => (m.role === "user" ? [i] : []));
  const from = userAt.length > exchanges ? userAt[userAt.length - exchanges]! : 0;
  const lines: string[] = [];
  if (from > 0) lines.push(`… ${userAt.length - exchanges} earlier exchanges`);
  for (const m of messages.slice(from)) {
    if (m.role === "user")
      lines.push("", truncateToWidth(`› ${textOf(m.content).replace(/\s+/g, " ")}`, width));
    else if (m.role === "assistant") {
      for (const p of m.parts)
        if (p.type === "toolCall") lines.push(truncateToWidth(`  ⚙ ${p.name} ${p.argumentsJson}`, width));
      const text = assistantText(m).trim();
      if (text) {
        const all = text.split("\n");
        lines.push(...all.slice(0, ANSWER_LINES).map((l) => truncateToWidth(l, width)));
        if (all.length > ANSWER_LINES) lines.push(`  … ${all.length - ANSWER_LINES} more lines`);
      }
    }
  }
  return lines;
}
