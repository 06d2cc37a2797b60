// What to do with one failed model call (SPEC F1), as data: the error kind decides between a
// retry with backoff, one credential refresh, falling back to the next route, or giving up.
import {
  type AssistantMessage,
  assistantText,
  type LlmError,
  type LlmErrorKind,
  toolCallsOf,
} from "@iris/llm";

/**
 * - `retry`: wait (jittered exponential backoff, Retry-After honoured) and call the same route again,
 *   up to `maxRetries`; then fall back.
 * - `refresh`: refresh the route's credentials once and call again; then fall back.
 * - `fallback`: no retry on this route; the next route of the chain is tried at once.
 * - `fail`: retrying or switching routes would not help; the call ends with this error.
 */
export type RetryAction = "retry" | "refresh" | "fallback" | "fail";

/**
 * Decisions beyond F1's three trigger groups:
 * - billing (402, quota exhausted) falls back at once: the quota belongs to this route's account,
 *   another provider's is unaffected; with no fallback left the turn ends `billing_error`.
 * - context_overflow does not fall back: the turn's own compression is the remedy, and silently
 *   moving to another model because our prompt grew is not a provider failure (`context_exhausted`).
 * - invalid_request (400/422) is not retried (the same body would fail the same way) but falls
 *   back: each attempt is shaped afresh for its route (H4), so a 400 one route's rules raise is no
 *   reason to stop a chain whose next route may take the request. The status line says why; with
 *   no route left the user sees the provider's message. Tests treat such a 400 as a shaping bug.
 * - aborted ends at once (the user interrupted).
 * - unreachable (connection refused, unknown host) falls back at once: a typo'd port or host does
 *   not start listening in the next 15 s of backoff, and with no fallback the call fails at once.
 */
export const ACTION_BY_KIND: Readonly<Record<LlmErrorKind, RetryAction>> = Object.freeze({
  invalid_response: "retry",
  rate_limit: "retry",
  server: "retry",
  timeout: "retry",
  network: "retry",
  auth: "refresh",
  not_found: "fallback",
  unreachable: "fallback",
  billing: "fallback",
  context_overflow: "fail",
  invalid_request: "fallback",
  aborted: "fail",
});

export interface RetryConfig {
  /** Retries per route and call, after the first attempt (default 3). */
  maxRetries: number;
  /** First backoff delay; doubles per retry (default 2 s). */
  baseDelayMs: number;
  /** Longest backoff delay before jitter (default 60 s). */
  maxDelayMs: number;
  /** A server's Retry-After is honoured up to this (default 60 s). */
  retryAfterCapMs: number;
  /**
   * Retries of a stall (first-byte or idle timeout) when no fallback can take over (default 1):
   * each one costs a whole timeout, and a route that stalled twice in a row is down. With a
   * usable fallback a stall falls back at once.
   */
  maxTimeoutRetries?: number;
  /** Overall deadline of one call across retries and fallbacks (default: call-deadline.ts). */
  callDeadlineMs?: number;
}

export const DEFAULT_RETRY: Readonly<RetryConfig> = Object.freeze({
  maxRetries: 3,
  baseDelayMs: 2_000,
  maxDelayMs: 60_000,
  retryAfterCapMs: 60_000,
  maxTimeoutRetries: 1,
});

/** Whether a route failing with this kind should hand over to the next route of the chain. */
export function fallsBack(kind: LlmErrorKind): boolean {
  return ACTION_BY_KIND[kind] !== "fail";
}

/**
 * The wait before retry number `retry` (1-based): the server's Retry-After when it sent one
 * (capped), else min(base·2^(retry−1), max) plus up to half of that again as jitter.
 */
export function retryDelayMs(
  error: LlmError,
  retry: number,
  config: RetryConfig,
  random: () => number,
): number {
  if (error.retryAfterMs !== undefined)
    return Math.min(Math.max(0, error.retryAfterMs), config.retryAfterCapMs);
  const exp = Math.min(config.baseDelayMs * 2 ** Math.max(0, retry - 1), config.maxDelayMs);
  return Math.round(exp + random() * 0.5 * exp);
}

/**
 * A `done` reply with nothing usable: no text, no tool call, and not a refusal, a content-filter
 * stop or a pause (those are answers the turn handles). Treated as an invalid response (F1).
 */
export function isEmptyReply(message: AssistantMessage): boolean {
  if (
    message.stopReason === "refusal" ||
    message.stopReason === "content_filter" ||
    message.stopReason === "pause"
  ) {
    return false;
  }
  return toolCallsOf(message).length === 0 && assistantText(message).trim() === "";
}

const WHAT_HAPPENED: Record<LlmErrorKind, string> = {
  invalid_response: "invalid response from",
  rate_limit: "rate limited by",
  server: "server error at",
  timeout: "timed out waiting for",
  network: "connection to",
  unreachable: "nothing listens at",
  auth: "credentials rejected by",
  not_found: "model not found at",
  billing: "billing/quota error at",
  context_overflow: "prompt too long for",
  invalid_request: "request rejected by",
  aborted: "call aborted to",
};

/** e.g. "rate limited by openai/gpt-x (429)" — never contains a credential (messages are scrubbed upstream). */
export function describeError(error: LlmError, route: string): string {
  const status = error.status !== undefined ? ` (${error.status})` : "";
  const lost = error.kind === "network" ? " lost" : "";
  // A 400 is only explained by the provider's own words (bounded: it goes on a status line).
  const why = error.kind === "invalid_request" ? `: ${error.message.slice(0, 200)}` : "";
  return `${WHAT_HAPPENED[error.kind]} ${route}${lost}${status}${why}`;
}

/** "4 s", "250 ms". */
export function formatDelay(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 1000)} s`;
}
