// The context window of each model, enforced with each provider's real 400 answer.
import type { ApiMode } from "../types.js";

export interface WindowError {
  status: number;
  body: unknown;
}

/** The error a real API returns for a prompt over the model's input limit. */
export function windowError(mode: ApiMode, tokens: number, window: number): WindowError {
  if (mode === "anthropic_messages") {
    return {
      status: 400,
      body: {
        type: "error",
        error: {
          type: "invalid_request_error",
          message: `prompt is too long: ${tokens} tokens > ${window} maximum`,
        },
      },
    };
  }
  if (mode === "responses") {
    return {
      status: 400,
      body: {
        error: {
          message:
            "Your input exceeds the context window of this model. Please adjust your input and try again.",
          type: "invalid_request_error",
          param: "input",
          code: "context_length_exceeded",
        },
      },
    };
  }
  return {
    status: 400,
    body: {
      error: {
        message:
          `This model's maximum context length is ${window} tokens. However, your messages resulted in ` +
          `${tokens} tokens. Please reduce the length of the messages.`,
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    },
  };
}

/** The window of a model: its own entry, else the server-wide default, else unlimited. */
export function windowOf(
  model: string,
  windows: Readonly<Record<string, number>> | undefined,
  fallback: number | undefined,
): number | undefined {
  return windows?.[model] ?? fallback;
}
