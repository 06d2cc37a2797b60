// Phase 2's model call (SPEC C3, C4, U2): the middle rendered as a transcript, an UPDATE of the
// previous summary when there is one, the window of the summary model checked before calling.
import type { Message } from "@iris/llm";
import { messageText } from "./summary-text.js";
import { estimateMessagesTokens } from "./tokens.js";

export interface SummaryRequest {
  system: string;
  messages: Message[];
  maxOutputTokens: number;
  signal?: AbortSignal;
}

export type SummaryOutcome = { ok: true; text: string } | { ok: false; error: string };

/** The auxiliary model that writes summaries, and the window it has. */
export interface Summarizer {
  contextWindow: number;
  summarize(request: SummaryRequest): Promise<SummaryOutcome>;
}

/** Per message, the transcript keeps head and end of very long texts (the middle is elided). */
const MESSAGE_HEAD_CHARS = 4_000;
const MESSAGE_END_CHARS = 1_500;

export const SUMMARY_SYSTEM_PROMPT = [
  "You compress the middle of a conversation between a user and an AI agent into a summary the",
  "agent will read instead of those messages. Write it for the agent, as reference only.",
  "Use these sections, skipping empty ones: Goal; Constraints and preferences; Completed actions",
  "(numbered, with the tools used); Current state; Open questions and pending user requests;",
  "Relevant files, commands and identifiers; Critical details (exact values, errors, decisions).",
  "Keep exact names, paths, numbers and error messages. Use past tense for finished work.",
  "Write in the language the user writes in. Never include secrets such as keys or passwords.",
  "Answer with the summary text only.",
].join("\n");

function clip(text: string): string {
  if (text.length <= MESSAGE_HEAD_CHARS + MESSAGE_END_CHARS + 100) return text;
  const omitted = text.length - MESSAGE_HEAD_CHARS - MESSAGE_END_CHARS;
  return `${text.slice(0, MESSAGE_HEAD_CHARS)}\n[… ${omitted} characters omitted …]\n${text.slice(-MESSAGE_END_CHARS)}`;
}

export function renderTranscript(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role === "user") lines.push(`USER${m.name ? ` (${m.name})` : ""}: ${clip(messageText(m))}`);
    else if (m.role === "tool")
      lines.push(`TOOL RESULT ${m.toolName}${m.isError ? " (error)" : ""}: ${clip(messageText(m))}`);
    else {
      const text = messageText(m);
      if (text) lines.push(`ASSISTANT: ${clip(text)}`);
      for (const p of m.parts)
        if (p.type === "toolCall") lines.push(`ASSISTANT CALLS ${p.name}: ${clip(p.argumentsJson)}`);
    }
  }
  return lines.join("\n\n");
}

export function buildSummaryRequest(
  middle: readonly Message[],
  previousSummary: string | undefined,
  maxOutputTokens: number,
): SummaryRequest {
  const transcript = renderTranscript(middle);
  const content = previousSummary
    ? [
        "There is a summary of the conversation so far. UPDATE it with the newer messages below:",
        "keep what still holds, add what is new, mark finished work as done, drop what was superseded.",
        "Do not start over.",
        "",
        "<previous-summary>",
        previousSummary,
        "</previous-summary>",
        "",
        "<newer-messages>",
        transcript,
        "</newer-messages>",
      ].join("\n")
    : ["Summarise these messages:", "", "<messages>", transcript, "</messages>"].join("\n");
  return { system: SUMMARY_SYSTEM_PROMPT, messages: [{ role: "user", content }], maxOutputTokens };
}

/** Null when the request fits the summary model's window; otherwise why not. */
export function summaryWindowProblem(request: SummaryRequest, contextWindow: number): string | null {
  const input = estimateMessagesTokens(request.messages, request.system);
  const needed = input + request.maxOutputTokens;
  if (needed <= contextWindow) return null;
  return (
    `the summary model's context window (${contextWindow} tokens) is too small: the part to ` +
    `summarise needs about ${input} input tokens plus ${request.maxOutputTokens} for the summary`
  );
}
