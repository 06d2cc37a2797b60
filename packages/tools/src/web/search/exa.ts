// Exa: POST /search {query, numResults, contents} with x-api-key; the snippet is the first
// highlight, else the start of the text.
import { z } from "zod";
import { endpoint, jsonOf, type SearchBackend, SearchError } from "./types.js";

const answer = z.object({
  results: z.array(
    z.object({
      title: z.string().nullish(),
      url: z.string(),
      text: z.string().nullish(),
      highlights: z.array(z.string()).nullish(),
      summary: z.string().nullish(),
    }),
  ),
});

export const exa: SearchBackend = {
  name: "exa",
  keyEnv: "EXA_API_KEY",
  defaultBaseUrl: "https://api.exa.ai",
  async search(r) {
    const res = await r.fetch(endpoint(r.baseUrl, "/search"), {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": r.key ?? "" },
      body: JSON.stringify({
        query: r.query,
        numResults: Math.min(r.count, 25),
        contents: { highlights: true },
      }),
      signal: r.signal,
    });
    const parsed = answer.safeParse(jsonOf("exa", res));
    if (!parsed.success) throw new SearchError("exa's answer has no results list");
    return parsed.data.results.slice(0, r.count).map((x) => ({
      title: x.title ?? "",
      url: x.url,
      snippet: x.highlights?.[0] ?? x.summary ?? (x.text ?? "").slice(0, 300),
    }));
  },
};
