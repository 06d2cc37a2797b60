// Azure AI Foundry. No default endpoint: each resource has its own, e.g. https://NAME.openai.azure.com/openai/v1
// (set providers.azure-foundry.base_url or AZURE_FOUNDRY_BASE_URL).
import { registerProvider } from "../define.js";

registerProvider({
  id: "azure-foundry",
  label: "Azure AI Foundry",
  apiMode: "chat_completions",
  baseUrl: "",
  keyEnv: ["AZURE_FOUNDRY_API_KEY", "AZURE_OPENAI_API_KEY"],
  baseUrlEnv: ["AZURE_FOUNDRY_BASE_URL"],
  compat: { auth: "bearer", maxTokensField: "max_completion_tokens", streamUsage: true, tools: true },
  aliases: ["azure", "azure-ai-foundry"],
});
