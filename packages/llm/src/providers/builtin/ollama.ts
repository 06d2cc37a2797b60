// Ollama. Local server; needs no key.
import { registerProvider } from "../define.js";

registerProvider({
  id: "ollama",
  label: "Ollama",
  apiMode: "chat_completions",
  baseUrl: "http://127.0.0.1:11434/v1",
  keyEnv: [],
  baseUrlEnv: ["OLLAMA_BASE_URL"],
  compat: { auth: "bearer", maxTokensField: "max_tokens", streamUsage: true, tools: true },
  local: true,
});
