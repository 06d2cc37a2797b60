// OpenRouter. Aggregator: one key, many vendors' models as vendor/model slugs.
import { registerProvider } from "../define.js";

registerProvider({
  id: "openrouter",
  label: "OpenRouter",
  apiMode: "chat_completions",
  baseUrl: "https://openrouter.ai/api/v1",
  keyEnv: ["OPENROUTER_API_KEY"],
  baseUrlEnv: ["OPENROUTER_BASE_URL"],
  headers: { "X-Title": "Iris" },
  compat: {
    auth: "bearer",
    maxTokensField: "max_tokens",
    streamUsage: true,
    promptCache: true,
    tools: true,
    // OpenRouter passes cache_control through to Anthropic and Gemini, which need it to cache.
    cacheMarkerModels: ["anthropic/", "google/gemini"],
    reasoningParams: "openrouter",
    reasoningDetails: true,
  },
  defaultModel: "anthropic/claude-sonnet-4.6",
  aliases: ["or"],
});
