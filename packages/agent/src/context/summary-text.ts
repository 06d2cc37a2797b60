// How a compaction summary looks inside the history, so the next compression can find it and
// update it (SPEC C4) and project instructions survive compaction (U2).
import { type AssistantMessage, assistantText, type Message, textOf } from "@iris/llm";

/** The exact prefix the store adapter gives compaction nodes (session/store-conversation.ts). */
export const SUMMARY_PREFIX = "[Summary of the earlier conversation]";
export const INSTRUCTIONS_BEGIN = "[Project instructions, re-injected after compaction]";
export const INSTRUCTIONS_END = "[End of project instructions]";

/** The body of a summary message (what follows the prefix line), instructions included. */
export function summaryBody(summary: string, projectInstructions?: string): string {
  const trimmed = summary.trim();
  if (!projectInstructions?.trim()) return trimmed;
  return `${trimmed}\n\n${INSTRUCTIONS_BEGIN}\n${projectInstructions.trim()}\n${INSTRUCTIONS_END}`;
}

export function summaryMessageText(summary: string, projectInstructions?: string): string {
  return `${SUMMARY_PREFIX}\n${summaryBody(summary, projectInstructions)}`;
}

export function messageText(m: Message): string {
  return m.role === "assistant" ? assistantText(m as AssistantMessage) : textOf(m.content);
}

export function isSummaryMessage(m: Message): boolean {
  return m.role !== "tool" && messageText(m).startsWith(SUMMARY_PREFIX);
}

/** The summary itself from a summary message: prefix and re-injected instructions removed. */
export function previousSummaryOf(m: Message): string {
  let text = messageText(m);
  if (text.startsWith(SUMMARY_PREFIX)) text = text.slice(SUMMARY_PREFIX.length);
  const begin = text.indexOf(INSTRUCTIONS_BEGIN);
  if (begin >= 0) {
    const end = text.indexOf(INSTRUCTIONS_END, begin);
    text = text.slice(0, begin) + (end >= 0 ? text.slice(end + INSTRUCTIONS_END.length) : "");
  }
  return text.trim();
}
