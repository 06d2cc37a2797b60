// AWS Bedrock. Bedrock's OpenAI-compatible endpoint with a Bedrock API key (bearer). Other regions: set
// providers.bedrock.base_url (and api_key_env, so the key may go there).
import { registerProvider } from "../define.js";

registerProvider({
  id: "bedrock",
  label: "AWS Bedrock",
  apiMode: "chat_completions",
  baseUrl: "https://bedrock-runtime.us-east-1.amazonaws.com/openai/v1",
  keyEnv: ["AWS_BEARER_TOKEN_BEDROCK"],
  compat: { auth: "bearer", maxTokensField: "max_completion_tokens", streamUsage: true, tools: true },
  defaultModel: "openai.gpt-oss-120b-1:0",
  aliases: ["aws", "amazon-bedrock"],
});
