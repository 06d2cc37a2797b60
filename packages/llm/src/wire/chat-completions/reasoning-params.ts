// How a Chat Completions route is asked to reason (SPEC P4). There is no standard field on this
// API: each provider family reads its own, and an unknown field is a 400 on strict servers.
//   openai      top-level `reasoning_effort` (OpenAI, Groq, Gemini's compatible endpoint, xAI, Kimi)
//   openrouter  `reasoning: {effort}` or `reasoning: {max_tokens}` (one of the two, never both)
//   deepseek    `thinking: {type: "enabled"}` and, with an effort, `reasoning_effort`
//   zai         `thinking: {type: "enabled"}` (GLM takes no effort)
//   qwen        `enable_thinking: true` and, with a budget, `thinking_budget`
import type { ProviderCompat } from "../../runtime.js";
import type { LlmRequest } from "../../types.js";

export type ReasoningParams = NonNullable<ProviderCompat["reasoningParams"]>;
type Reasoning = NonNullable<LlmRequest["reasoning"]>;

/** The body fields that ask this route for reasoning; empty when nothing was asked. */
export function reasoningFields(
  format: ReasoningParams,
  reasoning: Reasoning | undefined,
): Record<string, unknown> {
  if (reasoning === undefined) return {};
  const { effort, budgetTokens } = reasoning;
  switch (format) {
    case "openai":
      return effort ? { reasoning_effort: effort } : {};
    case "openrouter":
      if (effort) return { reasoning: { effort } };
      return budgetTokens !== undefined ? { reasoning: { max_tokens: budgetTokens } } : {};
    case "deepseek":
      return { thinking: { type: "enabled" }, ...(effort ? { reasoning_effort: effort } : {}) };
    case "zai":
      return { thinking: { type: "enabled" } };
    case "qwen":
      return {
        enable_thinking: true,
        ...(budgetTokens !== undefined ? { thinking_budget: budgetTokens } : {}),
      };
  }
}
