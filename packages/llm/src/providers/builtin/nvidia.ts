// NVIDIA NIM. NVIDIA's hosted NIM catalogue; a self-hosted NIM is a custom base_url.
import { registerProvider } from "../define.js";

registerProvider({
  id: "nvidia",
  label: "NVIDIA NIM",
  apiMode: "chat_completions",
  baseUrl: "https://integrate.api.nvidia.com/v1",
  keyEnv: ["NVIDIA_API_KEY"],
  compat: { auth: "bearer", maxTokensField: "max_tokens", streamUsage: true, tools: true },
  aliases: ["nvidia-nim", "nim"],
});
