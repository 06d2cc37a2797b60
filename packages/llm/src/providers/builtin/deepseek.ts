// DeepSeek. Thinking mode is on by default: it streams reasoning_content and rejects an assistant
// message with tool_calls that does not carry it back.
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
    reasoningContentOnToolTurns: true,
    reasoningParams: "deepseek",
    tools: true,
  },
  defaultModel: "deepseek-v4-flash",
});
