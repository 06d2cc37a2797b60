// Moonshot (Kimi). International endpoint; China accounts set providers.moonshot.base_url to https://api.moonshot.cn/v1.
import { registerProvider } from "../define.js";

registerProvider({
  id: "moonshot",
  label: "Moonshot (Kimi)",
  apiMode: "chat_completions",
  baseUrl: "https://api.moonshot.ai/v1",
  keyEnv: ["MOONSHOT_API_KEY", "KIMI_API_KEY"],
  compat: {
    auth: "bearer",
    maxTokensField: "max_tokens",
    streamUsage: true,
    reasoningContent: true,
    tools: true,
  },
  defaultModel: "kimi-k2.6",
  aliases: ["kimi", "moonshotai"],
});
