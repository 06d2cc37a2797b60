// Qwen (Alibaba DashScope). International endpoint; mainland-China accounts set providers.dashscope.base_url to
// https://dashscope.aliyuncs.com/compatible-mode/v1.
import { registerProvider } from "../define.js";

registerProvider({
  id: "dashscope",
  label: "Qwen (Alibaba DashScope)",
  apiMode: "chat_completions",
  baseUrl: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
  keyEnv: ["DASHSCOPE_API_KEY"],
  compat: {
    auth: "bearer",
    maxTokensField: "max_tokens",
    streamUsage: true,
    reasoningContent: true,
    reasoningParams: "qwen",
    tools: true,
  },
  defaultModel: "qwen3-max",
  aliases: ["qwen", "alibaba"],
});
