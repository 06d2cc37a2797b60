// web_search against fakes of the four search APIs (real wire formats, strict about keys and
// queries), all serving the local test site's pages: normalised results marked untrusted, the key
// read from the profile environment and sent only in its header, a short cache, 429 + Retry-After,
// an empty or oversized query refused before any call, and the menu saying why it is not offered.
import {
  type SearchApi,
  type SearchFake,
  startSearchFake,
  startTestSite,
  type TestSite,
} from "@iris/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SearchBackendName } from "../src/environment.js";
import { selectMenu } from "../src/registry/menu.js";
import { clearSearchCache } from "../src/web/search/cache.js";
import { webTools } from "./web-tools.js";

let site: TestSite;
const fakes = new Map<SearchApi, SearchFake>();
const KEY = "search-key-0123456789abcdef";
beforeAll(async () => {
  site = await startTestSite();
  for (const api of ["searxng", "brave", "tavily", "exa"] as const)
    fakes.set(api, await startSearchFake({ api, corpus: site, apiKey: KEY }));
});
afterAll(async () => {
  await Promise.all([...fakes.values()].map((f) => f.close()));
  await site.close();
});
beforeEach(() => clearSearchCache());

const ENV_NAME: Record<string, string> = {
  brave: "BRAVE_API_KEY",
  tavily: "TAVILY_API_KEY",
  exa: "EXA_API_KEY",
};

function setUp(api: SearchApi, extra: { cacheSeconds?: number } = {}) {
  const fake = fakes.get(api) as SearchFake;
  const secrets: string[] = [];
  const tools = webTools({
    env: ENV_NAME[api] ? { [ENV_NAME[api] as string]: KEY } : {},
    registerSecret: (v) => secrets.push(v),
    web: {
      search: { backend: api as SearchBackendName, baseUrl: fake.baseUrl, ...extra },
      policy: { allowPrivate: false, allowHosts: [new URL(fake.baseUrl).host, new URL(site.baseUrl).host] },
    },
  });
  return { fake, secrets, tools };
}

describe.each(["searxng", "brave", "tavily", "exa"] as const)("web_search on %s", (api) => {
  it("returns normalised results from the site, marked untrusted, that web_extract can read", async () => {
    const { fake, secrets, tools } = setUp(api);
    const { call } = await tools;
    const out = await call("web_search", { query: "streams backpressure", max_results: 3 });
    expect(out.isError).toBe(false);
    expect(out.content).toMatch(/^<untrusted_web_content source="[a-z]+ search: streams backpressure">/);
    expect(out.content).toContain("1. Node streams guide");
    expect(out.content).toContain(`   ${site.url("/docs/streams")}`);
    expect(out.content).not.toContain("<strong>");
    if (ENV_NAME[api]) {
      expect(secrets).toContain(KEY);
      expect(fake.requests.at(-1)?.url).not.toContain(KEY);
    }
    const url = /(http:\/\/\S+\/docs\/streams)/.exec(out.content)?.[1] as string;
    const page = await call("web_extract", { urls: [url] });
    expect(page.content).toContain("## Node streams guide");
  });

  it("refuses an empty or oversized query before any call", async () => {
    const { fake, tools } = setUp(api);
    const { call } = await tools;
    const before = fake.requests.length;
    const empty = await call("web_search", { query: "   " });
    expect(empty.isError).toBe(true);
    expect(empty.content).toContain("the query is empty");
    const long = await call("web_search", { query: "x".repeat(401) });
    expect(long.content).toContain("over 400 characters");
    expect(fake.requests.length).toBe(before);
  });
});

describe("web_search", () => {
  it("answers a repeated query from the cache, and a new one from the API", async () => {
    const { fake, tools } = setUp("brave");
    const { call } = await tools;
    const before = fake.requests.length;
    await call("web_search", { query: "서울 날씨" });
    const again = await call("web_search", { query: "서울 날씨" });
    expect(again.content).toContain("서울 날씨 - Iris News");
    expect(fake.requests.length).toBe(before + 1);
    await call("web_search", { query: "pipeline" });
    expect(fake.requests.length).toBe(before + 2);
  });

  it("waits out a short Retry-After once; a long one rests the backend without calling it", async () => {
    const { fake, tools } = setUp("tavily", { cacheSeconds: 0 });
    const { call } = await tools;
    fake.rateLimit("0", 1);
    const retried = await call("web_search", { query: "pipeline" });
    expect(retried.isError).toBe(false);
    expect(retried.content).toContain("Node streams guide");
    fake.rateLimit("120", 1);
    const limited = await call("web_search", { query: "streams" });
    expect(limited.content).toContain("tavily is rate limiting (HTTP 429); retry after 120 s");
    const count = fake.requests.length;
    const resting = await call("web_search", { query: "other" });
    expect(resting.content).toMatch(/tavily is rate limiting; try again in 1[12]\d s/);
    expect(fake.requests.length).toBe(count);
  });

  it("a wrong key is a readable error that does not show the key", async () => {
    const fake = fakes.get("exa") as SearchFake;
    const { call } = await webTools({
      env: { EXA_API_KEY: "wrong-key-abcdefghijkl" },
      web: {
        search: { backend: "exa", baseUrl: fake.baseUrl },
        policy: { allowPrivate: true, allowHosts: [] },
      },
    });
    const out = await call("web_search", { query: "streams" });
    expect(out.isError).toBe(true);
    expect(out.content).toContain("exa refused the key (HTTP 401)");
    expect(out.content).not.toContain("wrong-key");
  });

  it("is not offered without a backend or its key, and the menu says why", async () => {
    const none = await webTools({});
    const menu = await selectMenu(none.registry, { platform: "cli" });
    expect(menu.unavailable).toContain("web_search");
    expect(menu.unavailableReasons?.web_search).toBe(
      "no search backend is configured (set web.search.backend)",
    );
    expect(menu.tools.map((t) => t.name)).toContain("web_extract");
    const noKey = await webTools({ web: { search: { backend: "brave" } } });
    const menu2 = await selectMenu(noKey.registry, { platform: "cli" });
    expect(menu2.unavailableReasons?.web_search).toBe(
      "web.search.backend brave needs a key in BRAVE_API_KEY (.env or the environment)",
    );
  });

  it("the local backend needs no key and finds pages web_extract has read", async () => {
    const { call } = await webTools({
      web: {
        search: { backend: "local" },
        policy: { allowPrivate: false, allowHosts: [new URL(site.baseUrl).host] },
      },
    });
    await call("web_extract", { urls: [site.url("/news/seoul-weather"), site.url("/docs/streams")] });
    const out = await call("web_search", { query: "한강 얼음" });
    expect(out.content).toContain(`1. 서울 날씨`);
    expect(out.content).toContain(site.url("/news/seoul-weather"));
    expect(out.content).not.toContain(site.url("/docs/streams"));
  });
});
