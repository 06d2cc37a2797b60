// The OpenAI Chat Completions wire format (and the many OpenAI-compatible routes).
import type { WireAdapter } from "../adapter.js";
import { buildChatRequest } from "./build-request.js";
import { parseChatResponse } from "./parse-response.js";
import { ChatCompletionsReducer } from "./reducer.js";

export const chatCompletionsAdapter: WireAdapter = {
  apiMode: "chat_completions",
  buildRequest: buildChatRequest,
  createReducer: (origin) => new ChatCompletionsReducer(origin),
  parseResponse: parseChatResponse,
};
