// Placeholder until this wire format lands; replaced by the real adapter.
import { llmError } from "../../errors.js";
import type { WireAdapter } from "../adapter.js";

export const chatCompletionsAdapter: WireAdapter = {
  apiMode: "chat_completions",
  buildRequest() {
    throw new Error("chat_completions adapter not implemented yet");
  },
  createReducer() {
    return {
      push: () => [],
      end: () => [{ type: "error", error: llmError("invalid_request", "not implemented") }],
    };
  },
  parseResponse: () => llmError("invalid_request", "not implemented"),
};
