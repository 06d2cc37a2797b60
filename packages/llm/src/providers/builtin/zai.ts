// Zhipu / Z.ai (GLM). Pay-as-you-go endpoint. The GLM Coding Plan uses https://api.z.ai/api/coding/paas/v4 (set base_url).
import { registerProvider } from "../define.js";

registerProvider({
  id: "zai",
  label: "Zhipu / Z.ai (GLM)",
  apiMode: "chat_completions",
  baseUrl: "https://api.z.ai/api/paas/v4",
  keyEnv: ["ZAI_API_KEY", "ZHIPUAI_API_KEY", "GLM_API_KEY"],
  compat: {
    auth: "bearer",
    maxTokensField: "max_tokens",
    streamUsage: true,
    reasoningContent: true,
    reasoningParams: "zai",
    tools: true,
  },
  defaultModel: "glm-5.1",
  aliases: ["zhipu", "glm", "z-ai"],
});
