// LlmRequest + Runtime → the Chat Completions request body.
import type { Runtime } from "../../runtime.js";
import type { LlmRequest } from "../../types.js";
import type { BuiltRequest } from "../adapter.js";
import { historyLast } from "../body.js";
import { applyChatCacheMarkers, wantsCacheMarkers } from "./cache.js";
import { convertMessages, type WireMessage } from "./convert-messages.js";
import { prepareTools } from "./prepare-tools.js";
import { reasoningFields } from "./reasoning-params.js";

export const CHAT_COMPLETIONS_PATH = "/chat/completions";

function withMarkers(messages: WireMessage[], mark: boolean): WireMessage[] {
  return mark ? applyChatCacheMarkers(messages) : messages;
}

export function buildChatRequest(runtime: Runtime, request: LlmRequest): BuiltRequest {
  const stream = request.stream !== false;
  const body: Record<string, unknown> = {
    model: request.model,
    messages: withMarkers(
      convertMessages(request.system, request.messages, {
        reasoningContent: runtime.compat.reasoningContent === true,
        reasoningContentOnToolTurns: runtime.compat.reasoningContentOnToolTurns === true,
        reasoningDetails: runtime.compat.reasoningDetails === true,
      }),
      request.cache === true && wantsCacheMarkers(runtime, request.model),
    ),
    ...prepareTools(request.tools, request.toolChoice, runtime.compat.tools !== false),
    stream,
  };
  if (stream && runtime.compat.streamUsage !== false) body.stream_options = { include_usage: true };
  if (request.maxOutputTokens !== undefined) {
    body[runtime.compat.maxTokensField ?? "max_tokens"] = request.maxOutputTokens;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  Object.assign(body, reasoningFields(runtime.compat.reasoningParams ?? "openai", request.reasoning));
  return { path: CHAT_COMPLETIONS_PATH, body: historyLast(body, "messages"), headers: {} };
}
