// web_search (SPEC T): one query to the configured backend, results as {title, url, snippet}
// inside an untrusted-content block. An empty or oversized query is refused before any call; a
// 429 is waited out once when its Retry-After is short, else the backend rests until then.
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { defineTool } from "../define.js";
import { EMPTY_TOOL_ENVIRONMENT } from "../environment.js";
import { cached, limitFor, limitLeft, remember } from "../web/search/cache.js";
import { searchSetup } from "../web/search/setup.js";
import { SearchRateLimited, type SearchResult } from "../web/search/types.js";
import { untrusted } from "../web/untrusted.js";

export const MAX_QUERY_CHARS = 400;
/** A Retry-After this short is waited out within the call. */
const WAIT_SECONDS = 5;

export const webSearchParams = z.object({
  query: z
    .string()
    .max(MAX_QUERY_CHARS, `the query is over ${MAX_QUERY_CHARS} characters; search for the key words`)
    .refine((q) => q.trim() !== "", "the query is empty"),
  max_results: z.int().min(1).max(20).optional().describe("default web.search.max_results"),
});

export default defineTool({
  name: "web_search",
  toolset: "web",
  description: "Search the web. Returns titles, URLs and snippets; read a page in full with web_extract.",
  parameters: webSearchParams,
  effect: "read",
  parallelSafe: true,
  label: "searching",
  available: (env) => {
    const setup = searchSetup(env);
    return typeof setup === "string" ? setup : true;
  },
  execute: async ({ query, max_results }, ctx) => {
    const env = ctx.environment ?? EMPTY_TOOL_ENVIRONMENT;
    const setup = searchSetup(env);
    if (typeof setup === "string")
      return { content: `Error: web_search is not set up: ${setup}`, isError: true };
    const { backend, baseUrl, key } = setup;
    const count = max_results ?? env.web.search.maxResults;
    const q = query.trim();
    const cacheKey = JSON.stringify([backend.name, baseUrl, q, count]);
    let results = cached(cacheKey, env.web.search.cacheSeconds * 1000);
    if (!results) {
      const resting = limitLeft(backend.name);
      if (resting > 0)
        return {
          content: `Error: ${backend.name} is rate limiting; try again in ${resting} s`,
          isError: true,
        };
      const call = () =>
        backend.search({
          query: q,
          count,
          baseUrl,
          key,
          fetch: env.fetch,
          signal: ctx.signal,
          pages: env.pages,
        });
      try {
        results = await call().catch(async (err) => {
          if (!(err instanceof SearchRateLimited) || err.retryAfterSeconds > WAIT_SECONDS) throw err;
          ctx.progress({ message: `rate limited; retrying in ${err.retryAfterSeconds} s` });
          await sleep(err.retryAfterSeconds * 1000, undefined, { signal: ctx.signal });
          return call();
        });
      } catch (err) {
        if (err instanceof SearchRateLimited) limitFor(backend.name, err.retryAfterSeconds);
        return { content: `Error: ${err instanceof Error ? err.message : String(err)}`, isError: true };
      }
      remember(cacheKey, results);
    }
    return render(backend.name, q, results);
  },
});

function render(backend: string, query: string, results: SearchResult[]): string {
  if (results.length === 0) return `No results for ${JSON.stringify(query)} (${backend}).`;
  const lines = results.map(
    (r, i) => `${i + 1}. ${r.title || r.url}\n   ${r.url}\n   ${r.snippet.replace(/\s+/g, " ")}`,
  );
  return untrusted(`${backend} search: ${query}`, lines.join("\n"));
}
