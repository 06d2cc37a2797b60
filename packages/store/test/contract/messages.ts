// Messages the contract tests store: a user's text, and an assistant's answer as a provider gives it.
import type { AssistantMessage, Message } from "@iris/llm";

export const user = (text: string): Message => ({ role: "user", content: text });

export const assistant = (text: string): AssistantMessage => ({
  role: "assistant",
  parts: [{ type: "text", text }],
  origin: { provider: "p", apiMode: "chat_completions", model: "m" },
  usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  stopReason: "end",
});
