// Token counts for the context engine (SPEC C6, U7): the one script-aware estimate lives in
// @iris/llm (shared with send-time shaping). Its tests compare it with gpt-tokenizer's exact
// counts (a dev dependency: the app never needs an exact count).
export {
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateTokens,
  IMAGE_TOKEN_ESTIMATE,
} from "@iris/llm";
