// Anthropic. Native Messages API; the adapter appends /messages.
import { registerProvider } from "../define.js";

registerProvider({
  id: "anthropic",
  label: "Anthropic",
  apiMode: "anthropic_messages",
  baseUrl: "https://api.anthropic.com/v1",
  keyEnv: ["ANTHROPIC_API_KEY"],
  compat: { auth: "x-api-key", promptCache: true, tools: true },
  defaultModel: "claude-sonnet-4-6",
  aliases: ["claude"],
});
