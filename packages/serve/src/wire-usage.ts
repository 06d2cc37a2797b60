// Usage as the two OpenAI APIs report it, from the turn's canonical usage (every round summed).
import type { Usage } from "@iris/llm";

export function chatUsage(u: Usage) {
  return {
    prompt_tokens: u.inputTokens,
    completion_tokens: u.outputTokens,
    total_tokens: u.inputTokens + u.outputTokens,
    prompt_tokens_details: { cached_tokens: u.cacheReadTokens },
    completion_tokens_details: { reasoning_tokens: u.reasoningTokens },
  };
}

export function responsesUsage(u: Usage) {
  return {
    input_tokens: u.inputTokens,
    input_tokens_details: { cached_tokens: u.cacheReadTokens },
    output_tokens: u.outputTokens,
    output_tokens_details: { reasoning_tokens: u.reasoningTokens },
    total_tokens: u.inputTokens + u.outputTokens,
  };
}

/** Response headers every turn answer carries (the cost, the session, why the turn ended). */
export function turnHeaders(costUsd: number, reason: string, sessionId?: string): Record<string, string> {
  return {
    "x-iris-cost-usd": costUsd.toFixed(6),
    "x-iris-termination": reason,
    ...(sessionId ? { "x-iris-session-id": sessionId } : {}),
  };
}
