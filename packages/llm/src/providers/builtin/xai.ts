// xAI (Grok). OpenAI-compatible; providers.xai.api_mode: responses switches to xAI's Responses endpoint.
import { registerProvider } from "../define.js";

registerProvider({
  id: "xai",
  label: "xAI (Grok)",
  apiMode: "chat_completions",
  baseUrl: "https://api.x.ai/v1",
  keyEnv: ["XAI_API_KEY"],
  compat: {
    auth: "bearer",
    maxTokensField: "max_tokens",
    streamUsage: true,
    reasoningContent: true,
    tools: true,
  },
  defaultModel: "grok-4.3",
  aliases: ["grok", "x-ai"],
});
