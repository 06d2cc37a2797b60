// Mistral. Mistral sends usage on the last chunk without stream_options.
import { registerProvider } from "../define.js";

registerProvider({
  id: "mistral",
  label: "Mistral",
  apiMode: "chat_completions",
  baseUrl: "https://api.mistral.ai/v1",
  keyEnv: ["MISTRAL_API_KEY"],
  compat: { auth: "bearer", maxTokensField: "max_tokens", streamUsage: false, tools: true },
  defaultModel: "mistral-large-latest",
});
