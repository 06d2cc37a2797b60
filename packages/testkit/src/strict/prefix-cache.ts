// Prompt caching as the providers do it: a request whose beginning repeats an earlier request's
// is billed that common prefix as cache reads. OpenAI (Chat Completions, Responses) caches on its
// own from 1,024 tokens; Anthropic, and Claude or Gemini models behind a Chat Completions
// aggregator, only read what a `cache_control` marker asked to be written.
import type { ApiMode } from "../types.js";
import type { Json } from "../validate/rule.js";
import { AnthropicCache } from "./anthropic-cache.js";

export const MIN_CACHED_TOKENS = 1_024;
const REMEMBERED = 16;

export interface CacheFigures {
  cacheRead: number;
  cacheWrite: number;
}

/** Characters compared at once before the last block is walked one by one. */
const BLOCK = 512;

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  // Whole blocks by one native comparison each: a character loop over every remembered request
  // cost more than the request through the server it measures (bench/serve.ts).
  while (i + BLOCK <= n && a.slice(i, i + BLOCK) === b.slice(i, i + BLOCK)) i += BLOCK;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

export function needsMarkers(mode: ApiMode, model: string): boolean {
  if (mode === "anthropic_messages") return true;
  return mode === "chat_completions" && /claude|anthropic|gemini/i.test(model);
}

export class PrefixCache {
  private readonly seen: string[] = [];
  private readonly anthropic = new AnthropicCache();

  /** Figures for this request, then remembers it as a cache entry. */
  account(mode: ApiMode, model: string, raw: string, inputTokens: number, body: Json): CacheFigures {
    if (mode === "anthropic_messages" || needsMarkers(mode, model)) {
      // Markers and their look-back decide, block by block (anthropic-cache.ts).
      const { readShare, marked } = this.anthropic.account(body, mode === "chat_completions");
      let cacheRead = Math.floor(inputTokens * readShare);
      if (cacheRead < MIN_CACHED_TOKENS) cacheRead = 0;
      return { cacheRead, cacheWrite: marked ? inputTokens - cacheRead : 0 };
    }
    // Automatic caching (OpenAI): the longest byte prefix shared with a recent request.
    let best = 0;
    for (const earlier of this.seen) best = Math.max(best, commonPrefix(earlier, raw));
    this.seen.push(raw);
    if (this.seen.length > REMEMBERED) this.seen.shift();
    // The prompt's tokens in proportion to the bytes repeated.
    let cacheRead = best > 0 ? Math.floor((inputTokens * best) / raw.length) : 0;
    if (cacheRead < MIN_CACHED_TOKENS) cacheRead = 0;
    const cacheWrite = 0;
    return { cacheRead, cacheWrite };
  }
}
