// DeepSeek. Streams reasoning_content and requires it back on assistant turns.
import { registerProvider } from "../define.js";

registerProvider({
  id: "deepseek",
  label: "DeepSeek",
  apiMode: "chat_completions",
  baseUrl: "https://api.deepseek.com/v1",
  keyEnv: ["DEEPSEEK_API_KEY"],
  compat: {
    auth: "bearer",
    maxTokensField: "max_tokens",
    streamUsage: true,
    reasoningContent: true,
    tools: true,
  },
  defaultModel: "deepseek-v4-flash",
});
