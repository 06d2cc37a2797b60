// Google Gemini. Gemini through Google's OpenAI-compatible endpoint.
import { registerProvider } from "../define.js";

registerProvider({
  id: "gemini",
  label: "Google Gemini",
  apiMode: "chat_completions",
  baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai",
  keyEnv: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
  compat: { auth: "bearer", maxTokensField: "max_tokens", streamUsage: true, tools: true },
  defaultModel: "gemini-2.5-flash",
  aliases: ["google", "google-gemini"],
});
