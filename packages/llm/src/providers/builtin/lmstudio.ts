// LM Studio. Local server; a key only when the server was started with one.
import { registerProvider } from "../define.js";

registerProvider({
  id: "lmstudio",
  label: "LM Studio",
  apiMode: "chat_completions",
  baseUrl: "http://127.0.0.1:1234/v1",
  keyEnv: ["LM_API_KEY"],
  baseUrlEnv: ["LM_BASE_URL"],
  compat: { auth: "bearer", maxTokensField: "max_tokens", streamUsage: true, tools: true },
  local: true,
  aliases: ["lm-studio"],
});
