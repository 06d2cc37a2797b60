// llama.cpp server. Local llama-server; a key only when started with --api-key.
import { registerProvider } from "../define.js";

registerProvider({
  id: "llamacpp",
  label: "llama.cpp server",
  apiMode: "chat_completions",
  baseUrl: "http://127.0.0.1:8080/v1",
  keyEnv: ["LLAMA_API_KEY"],
  compat: {
    auth: "bearer",
    maxTokensField: "max_tokens",
    streamUsage: true,
    reasoningContent: true,
    tools: true,
  },
  local: true,
  aliases: ["llama.cpp", "llama-cpp", "llama-server"],
});
