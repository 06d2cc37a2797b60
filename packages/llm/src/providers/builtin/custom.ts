// Custom (OpenAI-compatible). Any OpenAI-compatible endpoint. The base URL is required; a key goes there only when configured
// with it (providers.custom.api_key_env) or given explicitly.
import { registerProvider } from "../define.js";

registerProvider({
  id: "custom",
  label: "Custom (OpenAI-compatible)",
  apiMode: "chat_completions",
  baseUrl: "",
  keyEnv: [],
  authByMode: { anthropic_messages: "x-api-key" },
  compat: { auth: "bearer", maxTokensField: "max_tokens", streamUsage: true, tools: true },
});
