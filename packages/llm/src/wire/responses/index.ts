// Placeholder until this wire format lands; replaced by the real adapter.
import { llmError } from "../../errors.js";
import type { WireAdapter } from "../adapter.js";

export const responsesAdapter: WireAdapter = {
  apiMode: "responses",
  buildRequest() {
    throw new Error("responses adapter not implemented yet");
  },
  createReducer() {
    return {
      push: () => [],
      end: () => [{ type: "error", error: llmError("invalid_request", "not implemented") }],
    };
  },
  parseResponse: () => llmError("invalid_request", "not implemented"),
};
