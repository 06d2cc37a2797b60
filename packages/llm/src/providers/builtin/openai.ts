// OpenAI. Responses API by default: reasoning items are kept and sent back (SPEC P4).
import { registerProvider } from "../define.js";

registerProvider({
  id: "openai",
  label: "OpenAI",
  apiMode: "responses",
  baseUrl: "https://api.openai.com/v1",
  keyEnv: ["OPENAI_API_KEY"],
  baseUrlEnv: ["OPENAI_BASE_URL"],
  compat: { auth: "bearer", maxTokensField: "max_completion_tokens", streamUsage: true, tools: true },
  defaultModel: "gpt-5.5",
  aliases: ["openai-api"],
});
