// Tavily: POST /search {query, max_results} with a Bearer key.
import { z } from "zod";
import { endpoint, jsonOf, type SearchBackend, SearchError } from "./types.js";

const answer = z.object({
  results: z.array(
    z.object({ title: z.string().default(""), url: z.string(), content: z.string().default("") }),
  ),
});

export const tavily: SearchBackend = {
  name: "tavily",
  keyEnv: "TAVILY_API_KEY",
  defaultBaseUrl: "https://api.tavily.com",
  async search(r) {
    const res = await r.fetch(endpoint(r.baseUrl, "/search"), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${r.key ?? ""}` },
      body: JSON.stringify({ query: r.query, max_results: Math.min(r.count, 20), search_depth: "basic" }),
      signal: r.signal,
    });
    const parsed = answer.safeParse(jsonOf("tavily", res));
    if (!parsed.success) throw new SearchError("tavily's answer has no results list");
    return parsed.data.results
      .slice(0, r.count)
      .map((x) => ({ title: x.title, url: x.url, snippet: x.content }));
  },
};
