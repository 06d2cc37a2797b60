// On resume, the last few exchanges are shown again so the user sees where the conversation
// stopped: each user message, the tools that ran (one line each) and the answer, shortened.

import type { Store } from "@iris/host";
import { messagesOfPath } from "@iris/host";
import { assistantText, textOf } from "@iris/llm";
import { truncateToWidth } from "./width.js";

const ANSWER_LINES = 12;

export async function replayLines(
  store: Store,
  sessionId: string,
  exchanges: number,
  width: number,
): Promise<string[]> {
  const messages = messagesOfPath(await store.activePath(sessionId));
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
