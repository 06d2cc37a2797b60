// The Anthropic Messages wire format: request builder + pure reducer (ARCHITECTURE.md).
import type { WireAdapter } from "../adapter.js";
import { buildAnthropicRequest } from "./build-request.js";
import { parseAnthropicReply } from "./parse-response.js";
import { createAnthropicReducer } from "./reducer.js";

export const anthropicAdapter: WireAdapter = {
  apiMode: "anthropic_messages",
  buildRequest: buildAnthropicRequest,
  createReducer: createAnthropicReducer,
  parseResponse: parseAnthropicReply,
};
