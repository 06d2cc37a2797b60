// api mode → wire adapter. The only place that lists the three formats.
import type { ApiMode } from "../types.js";
import type { WireAdapter } from "./adapter.js";
import { anthropicAdapter } from "./anthropic/index.js";
import { chatCompletionsAdapter } from "./chat-completions/index.js";
import { responsesAdapter } from "./responses/index.js";

const ADAPTERS: Record<ApiMode, WireAdapter> = {
  chat_completions: chatCompletionsAdapter,
  responses: responsesAdapter,
  anthropic_messages: anthropicAdapter,
};

export function adapterFor(mode: ApiMode): WireAdapter {
  return ADAPTERS[mode];
}
