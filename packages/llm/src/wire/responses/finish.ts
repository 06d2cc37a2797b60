// Responses API → canonical usage, stop reason and error kinds.
import { type LlmError, type LlmErrorKind, llmError } from "../../errors.js";
import type { StopReason, Usage } from "../../types.js";
import type { ProviderErrorBody, ResponsesUsage } from "./schemas.js";

/** OpenAI's input_tokens already includes the cached part, which is what Usage wants. */
export function mapUsage(usage: ResponsesUsage | null | undefined): Usage {
  return {
    inputTokens: usage?.input_tokens ?? 0,
    outputTokens: usage?.output_tokens ?? 0,
    cacheReadTokens: usage?.input_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: 0,
    reasoningTokens: usage?.output_tokens_details?.reasoning_tokens ?? 0,
  };
}

export interface StopFacts {
  status: string | undefined;
  incompleteReason: string | null | undefined;
  hasToolCalls: boolean;
  hasRefusal: boolean;
}

export function mapStopReason(f: StopFacts): StopReason {
  if (f.status === "incomplete") {
    if (f.incompleteReason === "max_output_tokens") return "max_tokens";
    if (f.incompleteReason === "content_filter") return "content_filter";
    return "unknown";
  }
  if (f.hasRefusal) return "refusal";
  if (f.hasToolCalls) return "tool_calls";
  return "end";
}

// Error codes the Responses API puts in `error` events and `response.failed`.
const CODE_KINDS: Record<string, LlmErrorKind> = {
  rate_limit_exceeded: "rate_limit",
  server_error: "server",
  server_is_overloaded: "server",
  slow_down: "rate_limit",
  context_length_exceeded: "context_overflow",
  insufficient_quota: "billing",
  invalid_prompt: "invalid_request",
  invalid_request_error: "invalid_request",
  model_not_found: "not_found",
};

export function providerError(err: ProviderErrorBody | null | undefined, fallback: string): LlmError {
  const code = err?.code ?? err?.type ?? undefined;
  const kind: LlmErrorKind = (code && CODE_KINDS[code]) || "server";
  const message = `responses: ${err?.message || fallback}${code ? ` (${code})` : ""}`;
  return llmError(kind, message, code ? { code } : {});
}
