// Chat Completions usage → canonical Usage. `prompt_tokens` already includes cached tokens.
import type { Usage } from "../../types.js";
import type { WireUsage } from "./schema.js";

export function mapUsage(wire: WireUsage | null | undefined): Usage {
  return {
    inputTokens: wire?.prompt_tokens ?? 0,
    outputTokens: wire?.completion_tokens ?? 0,
    cacheReadTokens: wire?.prompt_tokens_details?.cached_tokens ?? wire?.prompt_cache_hit_tokens ?? 0,
    cacheWriteTokens: wire?.prompt_tokens_details?.cache_write_tokens ?? 0,
    reasoningTokens: wire?.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}
