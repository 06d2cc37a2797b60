// SearXNG: GET /search?q=&format=json (JSON must be enabled in its settings.yml); no key.
import { z } from "zod";
import { endpoint, jsonOf, type SearchBackend, SearchError } from "./types.js";

const answer = z.object({
  results: z.array(
    z.object({ url: z.string(), title: z.string().default(""), content: z.string().default("") }),
  ),
});

export const searxng: SearchBackend = {
  name: "searxng",
  async search(r) {
    const url = new URL(endpoint(r.baseUrl, "/search"));
    url.searchParams.set("q", r.query);
    url.searchParams.set("format", "json");
    url.searchParams.set("pageno", "1");
    const res = await r.fetch(url.toString(), { headers: { accept: "application/json" }, signal: r.signal });
    if (res.status === 403)
      throw new SearchError(
        "searxng refused format=json (HTTP 403): enable json under search.formats in its settings.yml",
      );
    const parsed = answer.safeParse(jsonOf("searxng", res));
    if (!parsed.success) throw new SearchError("searxng's answer has no results list");
    return parsed.data.results
      .slice(0, r.count)
      .map((x) => ({ title: x.title, url: x.url, snippet: x.content }));
  },
};
