// Token counts for the context engine (SPEC C6, U7): the one script-aware estimate lives in
// @iris/llm (shared with send-time shaping); the exact BPE count through gpt-tokenizer is here,
// loaded only when asked.
export {
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateTokens,
  IMAGE_TOKEN_ESTIMATE,
} from "@iris/llm";

export type ExactEncoding = "o200k_base" | "cl100k_base";
type Counter = (text: string) => number;
const counters = new Map<ExactEncoding, Promise<Counter>>();

/** Loads the BPE tables on first use only (~0.3 s each): start-up stays fast. */
function loadCounter(encoding: ExactEncoding): Promise<Counter> {
  let loading = counters.get(encoding);
  if (!loading) {
    loading =
      encoding === "o200k_base"
        ? import("gpt-tokenizer/encoding/o200k_base").then((m) => m.countTokens)
        : import("gpt-tokenizer/encoding/cl100k_base").then((m) => m.countTokens);
    counters.set(encoding, loading);
  }
  return loading;
}

/** The exact count under an OpenAI encoding (o200k_base by default). */
export async function countTokensExact(
  text: string,
  encoding: ExactEncoding = "o200k_base",
): Promise<number> {
  const count = await loadCounter(encoding);
  return count(text);
}
