// Placeholder until this wire format lands; replaced by the real adapter.
import { llmError } from "../../errors.js";
import type { WireAdapter } from "../adapter.js";

export const anthropicAdapter: WireAdapter = {
  apiMode: "anthropic_messages",
  buildRequest() {
    throw new Error("anthropic_messages adapter not implemented yet");
  },
  createReducer() {
    return {
      push: () => [],
      end: () => [{ type: "error", error: llmError("invalid_request", "not implemented") }],
    };
  },
  parseResponse: () => llmError("invalid_request", "not implemented"),
};
