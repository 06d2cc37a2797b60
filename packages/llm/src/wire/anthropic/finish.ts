// Anthropic → canonical usage, stop reason and error kinds.
import { type LlmError, type LlmErrorKind, llmError } from "../../errors.js";
import type { StopReason, Usage } from "../../types.js";
import type { AnthropicUsage, ProviderErrorBody } from "./schemas.js";

/** Running usage: message_start gives the prompt side, message_delta the output (and sometimes updates). */
export interface UsageTally {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export function addUsage(tally: UsageTally, u: AnthropicUsage | null | undefined): void {
  if (!u) return;
  if (typeof u.input_tokens === "number") tally.input = u.input_tokens;
  if (typeof u.cache_read_input_tokens === "number") tally.cacheRead = u.cache_read_input_tokens;
  if (typeof u.cache_creation_input_tokens === "number") tally.cacheWrite = u.cache_creation_input_tokens;
  if (typeof u.output_tokens === "number") tally.output = u.output_tokens;
}

/** Anthropic reports uncached input apart from cache reads and writes; Usage wants the whole prompt. */
export function mapUsage(t: UsageTally): Usage {
  return {
    inputTokens: t.input + t.cacheRead + t.cacheWrite,
    outputTokens: t.output,
    cacheReadTokens: t.cacheRead,
    cacheWriteTokens: t.cacheWrite,
    reasoningTokens: 0, // not reported apart: thinking is counted in output_tokens
  };
}

const STOP_REASONS: Record<string, StopReason> = {
  end_turn: "end",
  stop_sequence: "end",
  tool_use: "tool_calls",
  max_tokens: "max_tokens",
  model_context_window_exceeded: "max_tokens",
  refusal: "refusal",
  pause_turn: "pause",
};

export function mapStopReason(reason: string | null | undefined): StopReason {
  return (reason && STOP_REASONS[reason]) || "unknown";
}

const ERROR_KINDS: Record<string, LlmErrorKind> = {
  overloaded_error: "server",
  api_error: "server",
  rate_limit_error: "rate_limit",
  authentication_error: "auth",
  permission_error: "auth",
  not_found_error: "not_found",
  request_too_large: "context_overflow",
  billing_error: "billing",
  invalid_request_error: "invalid_request",
  timeout_error: "timeout",
};

export function providerError(err: ProviderErrorBody | null | undefined, fallback: string): LlmError {
  const type = err?.type ?? undefined;
  let kind: LlmErrorKind = (type && ERROR_KINDS[type]) || "server";
  const text = err?.message || fallback;
  if (kind === "invalid_request" && /prompt is too long|context (window|length)/i.test(text)) {
    kind = "context_overflow";
  }
  return llmError(kind, `anthropic: ${text}${type ? ` (${type})` : ""}`, type ? { code: type } : {});
}
