// Brave Search API: GET /res/v1/web/search?q=&count= with X-Subscription-Token.
import { z } from "zod";
import { endpoint, jsonOf, type SearchBackend, SearchError } from "./types.js";

const answer = z.object({
  web: z
    .object({
      results: z.array(
        z.object({ title: z.string().default(""), url: z.string(), description: z.string().default("") }),
      ),
    })
    .optional(),
});

export const brave: SearchBackend = {
  name: "brave",
  keyEnv: "BRAVE_API_KEY",
  defaultBaseUrl: "https://api.search.brave.com",
  async search(r) {
    const url = new URL(endpoint(r.baseUrl, "/res/v1/web/search"));
    url.searchParams.set("q", r.query);
    url.searchParams.set("count", String(Math.min(r.count, 20)));
    const res = await r.fetch(url.toString(), {
      headers: { accept: "application/json", "x-subscription-token": r.key ?? "" },
      signal: r.signal,
    });
    const parsed = answer.safeParse(jsonOf("brave", res));
    if (!parsed.success) throw new SearchError("brave's answer is not a web search response");
    return (parsed.data.web?.results ?? [])
      .slice(0, r.count)
      .map((x) => ({ title: x.title, url: x.url, snippet: stripTags(x.description) }));
  },
};

/** Brave marks matched words with <strong>. */
function stripTags(s: string): string {
  return s.replace(/<\/?[a-z][^>]*>/gi, "");
}
