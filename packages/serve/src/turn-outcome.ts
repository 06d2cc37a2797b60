// How a finished turn reads on the wire, shared by both endpoints.
import { ApiError } from "./errors.js";
import type { TurnOutcome } from "./turns.js";

/**
 * A turn the provider failed (after retries and fallback) is an upstream error, not an answer;
 * one whose session could not be saved (a lost database) is the server's, with the core's message.
 */
export function failIfUpstream(out: TurnOutcome): void {
  const { reason, text } = out.result;
  if (reason === "store_error") throw new ApiError(503, text, "server_error", "store_error");
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
