// web_extract against a local site through the real dispatcher: Markdown from real HTML (no
// navigation, ads or scripts; a GFM table; fenced code; Korean kept; links absolute), EUC-KR,
// a PDF, a redirect, parallel URLs, the size cap, and private addresses refused by default —
// as a literal, after a redirect and through a DNS answer — unless the config allows them.
import { startTestSite, type TestSite } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webTools } from "./web-tools.js";

let site: TestSite;
beforeAll(async () => {
  site = await startTestSite();
});
afterAll(() => site.close());

/** The site is on 127.0.0.1: the tests name its exact host:port as allowed, nothing else. */
const allowSite = () => ({
  web: { policy: { allowPrivate: false, allowHosts: [new URL(site.baseUrl).host] } },
});

describe("web_extract", () => {
  it("turns a real page into clean Markdown with title, final URL, table, code and Korean text", async () => {
    const { call } = await webTools(allowSite());
    const out = await call("web_extract", { urls: [site.url("/old-news")] });
    expect(out.isError).toBe(false);
    const text = out.content;
    expect(text).toContain("## 서울 날씨");
    expect(text).toContain(`URL: ${site.url("/news/seoul-weather")}`);
    expect(text).toContain(`Requested: ${site.url("/old-news")}`);
    expect(text).toContain("Language: ko");
    expect(text).toContain("김민수");
    expect(text).toMatch(/\| 도시 +\| 최저 +\| 최고 +\|/);
    expect(text).toContain("| --- |");
    expect(text).toContain('```\nconst res = await fetch("/api/weather?city=seoul");');
    expect(text).toContain(`(${site.url("/news/forecast")})`);
    for (const junk of ["NAVLINK", "ADVERT", "SIDEBAR", "track-me-script", "footer-script"])
      expect(text).not.toContain(junk);
    expect(text).toContain("<untrusted_web_content");
  });

  it("reads EUC-KR by its <meta> charset, a PDF, and several URLs in one call, one failing", async () => {
    const { call } = await webTools(allowSite());
    const out = await call("web_extract", {
      urls: [
        site.url("/legacy/euc-kr"),
        site.url("/docs/report.pdf"),
        site.url("/missing"),
        site.url("/image.png"),
      ],
    });
    expect(out.isError).toBe(false);
    expect(out.content).toContain("안녕하세요 서울");
    expect(out.content).toContain("Throughput of pipeline() was 1.2 GB per second.");
    expect(out.content).toContain("## Stream report");
    expect(out.content).toContain(`${site.url("/missing")}: HTTP 404`);
    expect(out.content).toContain("image/png is not a page");
  });

  it("cuts a page over the cap and says so", async () => {
    const { call } = await webTools({
      ...allowSite(),
      web: { ...allowSite().web, extract: { maxChars: 5000 } },
    });
    const out = await call("web_extract", { urls: [site.url("/huge")] });
    expect(out.content).toMatch(/Note: Cut at 5000 of \d+ characters \(web\.extract\.max_chars\)/);
    expect(out.content.length).toBeLessThan(7000);
  });

  it("times out a page that never answers, as a readable error", async () => {
    const { call } = await webTools({
      ...allowSite(),
      web: { ...allowSite().web, extract: { timeoutSeconds: 0.3 } },
    });
    const out = await call("web_extract", { urls: [site.url("/slow")] });
    expect(out).toMatchObject({ isError: true });
    expect(out.content).toContain("timed out after 0.3 s");
  });

  it("refuses loopback by default, a redirect to another loopback port, and a name resolving to loopback", async () => {
    const plain = await webTools({});
    const direct = await plain.call("web_extract", { urls: [site.url("/docs/streams")] });
    expect(direct.isError).toBe(true);
    expect(direct.content).toContain("127.0.0.1 is loopback");
    expect(direct.content).toContain("web.allow_private");

    const { call } = await webTools(allowSite());
    const redirected = await call("web_extract", { urls: [site.url("/to-internal")] });
    expect(redirected.isError).toBe(true);
    expect(redirected.content).toContain(`refused ${site.internal.baseUrl}/latest/meta-data/`);
    expect(site.internal.hits).toEqual([]);

    const port = new URL(site.baseUrl).port;
    const named = await webTools({ resolve: async () => [{ address: "127.0.0.1", family: 4 }] });
    const viaDns = await named.call("web_extract", { urls: [`http://news.example:${port}/docs/streams`] });
    expect(viaDns.content).toContain("news.example resolves to 127.0.0.1 (loopback)");
    const metadata = await named.call("web_extract", { urls: ["http://169.254.169.254/latest/meta-data/"] });
    expect(metadata.content).toContain("link-local (cloud metadata)");
  });

  it("reaches private addresses when web.allow_private is true", async () => {
    const { call } = await webTools({ web: { policy: { allowPrivate: true, allowHosts: [] } } });
    const out = await call("web_extract", { urls: [site.url("/to-internal")] });
    expect(out.content).toContain("SECRET-METADATA-TOKEN");
  });

  it("refuses a bad argument before fetching anything", async () => {
    const { call } = await webTools(allowSite());
    const before = site.hits.length;
    const empty = await call("web_extract", { urls: [] });
    expect(empty.isError).toBe(true);
    expect(empty.content).toContain("give at least one URL");
    const ftp = await call("web_extract", { urls: ["ftp://example.org/x"] });
    expect(ftp.content).toContain("ftp: URLs are not fetched");
    expect(site.hits.length).toBe(before);
  });
});
