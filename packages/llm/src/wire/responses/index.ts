// The OpenAI Responses wire format: request builder + pure reducer (ARCHITECTURE.md).
import type { WireAdapter } from "../adapter.js";
import { buildResponsesRequest } from "./build-request.js";
import { parseResponsesReply } from "./parse-response.js";
import { createResponsesReducer } from "./reducer.js";

export const responsesAdapter: WireAdapter = {
  apiMode: "responses",
  buildRequest: buildResponsesRequest,
  createReducer: createResponsesReducer,
  parseResponse: parseResponsesReply,
};
