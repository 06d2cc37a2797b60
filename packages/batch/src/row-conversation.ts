// The conversation part of a row in the chosen layout (SPEC E4): ShareGPT turns or OpenAI
// fine-tuning messages, the tool schemas the item was offered, the item's own system text (sent
// after Iris's prompt, so the system turn is the prompt as the model saw it) and, in the openai
// layout, the reasoning the route returned.
import type { Message, ToolSpec } from "@iris/llm";
import { openAiTools, toOpenAiMessages } from "./openai-format.js";
import { type TrajectoryFormat, type TrajectoryRow, toShareGpt } from "./trajectory.js";

export type ConversationFields = Pick<
  TrajectoryRow,
  "conversations" | "messages" | "tools" | "system" | "reasoning" | "tool_calls" | "tool_stats"
>;

export function conversationFields(opts: {
  format: TrajectoryFormat;
  /** Iris's frozen prompt of the item. */
  frozenPrompt: string;
  history: readonly Message[];
  tools: readonly ToolSpec[];
  itemSystem: string | undefined;
}): ConversationFields {
  const { itemSystem } = opts;
  const sent = itemSystem
    ? opts.frozenPrompt
      ? `${opts.frozenPrompt}\n\n${itemSystem}`
      : itemSystem
    : opts.frozenPrompt;
  const share = toShareGpt(sent, opts.history);
  const common = {
    tools: openAiTools(opts.tools),
    ...(itemSystem !== undefined ? { system: itemSystem } : {}),
    tool_calls: share.toolCalls,
    tool_stats: share.toolStats,
  };
  if (opts.format === "sharegpt") return { conversations: share.conversations, ...common };
  const { messages, reasoning } = toOpenAiMessages(sent, opts.history);
  return { messages, ...(reasoning.length ? { reasoning } : {}), ...common };
}
