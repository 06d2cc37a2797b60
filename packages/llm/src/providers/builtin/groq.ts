// Groq. Groq's OpenAI-compatible endpoint.
import { registerProvider } from "../define.js";

registerProvider({
  id: "groq",
  label: "Groq",
  apiMode: "chat_completions",
  baseUrl: "https://api.groq.com/openai/v1",
  keyEnv: ["GROQ_API_KEY"],
  compat: { auth: "bearer", maxTokensField: "max_tokens", streamUsage: true, tools: true },
  defaultModel: "openai/gpt-oss-120b",
});
