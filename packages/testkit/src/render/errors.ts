/** Error bodies in each vendor's own JSON shape. */
import type { ApiMode } from "../types.js";

const OPENAI_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "invalid_request_error",
  403: "permission_denied",
  404: "not_found_error",
  429: "rate_limit_exceeded",
  500: "server_error",
  503: "server_error",
};

const ANTHROPIC_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

export function errorBody(
  mode: ApiMode,
  status: number,
  message: string,
  param: string | null = null,
): unknown {
  if (mode === "anthropic_messages") {
    return { type: "error", error: { type: ANTHROPIC_TYPES[status] ?? "api_error", message } };
  }
  return {
    error: { message, type: OPENAI_TYPES[status] ?? "server_error", param, code: null },
  };
}
