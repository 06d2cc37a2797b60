// A small set of error kinds that the retry and fallback policy (SPEC F1) acts on.

export type LlmErrorKind =
  | "auth" // 401/403: refresh the credential once, then fall back
  | "not_found" // 404 or model not found: fall back at once
  | "rate_limit" // 429: retry with backoff honouring Retry-After, then fall back
  | "server" // 5xx: retry, then fall back
  | "timeout" // connect timeout or a stall (no bytes for too long)
  | "network" // connection reset, stream dropped mid-reply, a DNS hiccup
  | "unreachable" // nothing listens at the URL (refused, unknown host, no route): retrying is pointless
  | "invalid_response" // 200 with nothing usable (no choices, malformed SSE, empty reply)
  | "context_overflow" // 400/413 saying the prompt is too long
  | "billing" // 402 or quota exhausted
  | "invalid_request" // other 400/422: our request is wrong; retrying will not help
  | "aborted"; // the caller's AbortSignal fired

export interface LlmError {
  kind: LlmErrorKind;
  /** One line for people; never contains a credential. */
  message: string;
  status?: number;
  retryable: boolean;
  /** From Retry-After / retry-after-ms headers, when the server sent one. */
  retryAfterMs?: number;
  /** The provider's own error code or type, when present. */
  code?: string;
}

const RETRYABLE: Record<LlmErrorKind, boolean> = {
  auth: false,
  not_found: false,
  rate_limit: true,
  server: true,
  timeout: true,
  network: true,
  unreachable: false,
  invalid_response: true,
  context_overflow: false,
  billing: false,
  invalid_request: false,
  aborted: false,
};

export function llmError(
  kind: LlmErrorKind,
  message: string,
  extra: Partial<Omit<LlmError, "kind" | "message">> = {},
): LlmError {
  return { kind, message, retryable: RETRYABLE[kind], ...extra };
}

export function isRetryable(kind: LlmErrorKind): boolean {
  return RETRYABLE[kind];
}
