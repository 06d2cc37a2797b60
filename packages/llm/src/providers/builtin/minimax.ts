// MiniMax. MiniMax's Anthropic-compatible endpoint (the adapter appends /messages).
import { registerProvider } from "../define.js";

registerProvider({
  id: "minimax",
  label: "MiniMax",
  apiMode: "anthropic_messages",
  baseUrl: "https://api.minimax.io/anthropic/v1",
  keyEnv: ["MINIMAX_API_KEY"],
  compat: { auth: "x-api-key", promptCache: true, tools: true },
  defaultModel: "MiniMax-M2.7",
});
