// How a finished turn reads on the wire, shared by both endpoints.
import { ApiError } from "./errors.js";
import type { TurnOutcome } from "./turns.js";

/** A turn the provider failed (after retries and fallback) is an upstream error, not an answer. */
export function failIfUpstream(out: TurnOutcome): void {
  const { reason, text } = out.result;
  if (reason === "llm_error" || reason === "billing_error")
    throw new ApiError(
      502,
      text,
      "upstream_error",
      reason === "billing_error" ? "upstream_billing" : "upstream_failed",
    );
}

export function finishReasonOf(out: TurnOutcome): "stop" | "tool_calls" | "content_filter" {
  if (out.clientCalls.length) return "tool_calls";
  return out.result.reason === "model_refusal" ? "content_filter" : "stop";
}
