// vLLM. Local server (vllm serve); a key only when started with --api-key.
import { registerProvider } from "../define.js";

registerProvider({
  id: "vllm",
  label: "vLLM",
  apiMode: "chat_completions",
  baseUrl: "http://127.0.0.1:8000/v1",
  keyEnv: ["VLLM_API_KEY"],
  compat: {
    auth: "bearer",
    maxTokensField: "max_tokens",
    streamUsage: true,
    reasoningContent: true,
    tools: true,
  },
  local: true,
});
