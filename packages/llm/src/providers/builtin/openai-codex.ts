// OpenAI Codex (ChatGPT). The ChatGPT coding route. It takes a ChatGPT OAuth access token, not an API key; Iris has no login
// flow yet, so the token is read from OPENAI_CODEX_ACCESS_TOKEN. Windows are capped (272K for gpt-5.x).
import { registerProvider } from "../define.js";

registerProvider({
  id: "openai-codex",
  label: "OpenAI Codex (ChatGPT)",
  apiMode: "responses",
  baseUrl: "https://chatgpt.com/backend-api/codex",
  keyEnv: ["OPENAI_CODEX_ACCESS_TOKEN"],
  compat: { auth: "bearer", tools: true },
  defaultModel: "gpt-5.5",
  aliases: ["codex"],
});
