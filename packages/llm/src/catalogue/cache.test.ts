import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type TempDir, tempDir } from "@iris/testkit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { clearCatalogueCache, loadCatalogueCache, refreshCatalogue } from "./cache.js";
import { lookupModel } from "./lookup.js";

const DOC = {
  providers: {
    anthropic: {
      "claude-sonnet-4-6": {
        contextWindow: 777_000,
        maxOutput: 64_000,
        price: { input: 1, output: 2 },
        reasoning: true,
      },
      "claude-brand-new": { contextWindow: 500_000, maxOutput: 32_000, vision: true },
    },
    "openai-codex": { "gpt-5.5": { contextWindow: 999_999, maxOutput: 1 } },
  },
};

let server: Server;
let url: string;
let hits = 0;
let reply: { status: number; body: string } = { status: 200, body: JSON.stringify(DOC) };
let dir: TempDir;

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    res.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/catalogue.json`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});
afterEach(() => {
  clearCatalogueCache();
  reply = { status: 200, body: JSON.stringify(DOC) };
  dir?.cleanup();
});

describe("refreshCatalogue", () => {
  it("fetches into a disk cache that lookups consult after corrections, before bundled", async () => {
    dir = tempDir("iris-catalogue");
    const cacheFile = `${dir.path}/cache/catalogue.json`;
    const t0 = 1_000_000;
    const r = await refreshCatalogue({ url, cacheFile, ttlMs: 60_000, now: () => t0 });
    expect(r).toMatchObject({ ok: true, from: "network", models: 3 });

    const fresh = lookupModel("anthropic", "claude-sonnet-4-6", { now: t0 + 1 });
    expect(fresh).toMatchObject({ source: "cache", known: true });
    expect(fresh.info.contextWindow).toBe(777_000);
    expect(lookupModel("anthropic", "claude-brand-new", { now: t0 + 1 }).info).toMatchObject({
      vision: true,
      contextWindow: 500_000,
    });
    // A correction still wins over the cache.
    expect(lookupModel("openai-codex", "gpt-5.5", { now: t0 + 1 }).info.contextWindow).toBe(272_000);
    // Once the TTL has passed the cache is not believed.
    expect(lookupModel("anthropic", "claude-sonnet-4-6", { now: t0 + 60_000 }).source).toBe("bundled");
  });

  it("does not fetch while the disk cache is fresh; does after the TTL or with force", async () => {
    dir = tempDir("iris-catalogue");
    const cacheFile = `${dir.path}/catalogue.json`;
    const before = hits;
    await refreshCatalogue({ url, cacheFile, ttlMs: 1_000, now: () => 5_000 });
    const again = await refreshCatalogue({ url, cacheFile, ttlMs: 1_000, now: () => 5_500 });
    expect(again).toMatchObject({ ok: true, from: "disk" });
    expect(hits).toBe(before + 1);
    const stale = await refreshCatalogue({ url, cacheFile, ttlMs: 1_000, now: () => 6_000 });
    expect(stale).toMatchObject({ ok: true, from: "network" });
    await refreshCatalogue({ url, cacheFile, ttlMs: 1_000, now: () => 6_001, force: true });
    expect(hits).toBe(before + 3);
  });

  it("a new process reads a fresh disk cache without the network", async () => {
    dir = tempDir("iris-catalogue");
    const cacheFile = `${dir.path}/catalogue.json`;
    await refreshCatalogue({ url, cacheFile, ttlMs: 10_000, now: () => 100 });
    clearCatalogueCache();
    expect(lookupModel("anthropic", "claude-brand-new", { now: 200 }).known).toBe(false);
    expect(loadCatalogueCache({ cacheFile, ttlMs: 10_000, now: () => 200 })).toMatchObject({
      ok: true,
      models: 3,
    });
    expect(lookupModel("anthropic", "claude-brand-new", { now: 200 }).source).toBe("cache");
    expect(loadCatalogueCache({ cacheFile, ttlMs: 10_000, now: () => 20_000 }).ok).toBe(false);
  });

  it("reports HTTP errors, bad documents and network failures without throwing", async () => {
    dir = tempDir("iris-catalogue");
    const cacheFile = `${dir.path}/catalogue.json`;
    reply = { status: 503, body: "down" };
    expect(await refreshCatalogue({ url, cacheFile, ttlMs: 1 })).toEqual({
      ok: false,
      error: `catalogue refresh from ${url} failed: HTTP 503`,
    });
    reply = {
      status: 200,
      body: JSON.stringify({ providers: { x: { y: { contextWindow: -1, maxOutput: 1 } } } }),
    };
    const bad = await refreshCatalogue({ url, cacheFile, ttlMs: 1 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toContain("providers.x.y.contextWindow");
    const failingFetch = (async () => {
      throw new Error("connect ECONNREFUSED");
    }) as unknown as typeof fetch;
    const net = await refreshCatalogue({
      url: "http://127.0.0.1:1/x",
      cacheFile,
      ttlMs: 1,
      fetch: failingFetch,
    });
    expect(net).toMatchObject({ ok: false });
    if (!net.ok) expect(net.error).toContain("ECONNREFUSED");
  });

  it("takes an injected fetch", async () => {
    dir = tempDir("iris-catalogue");
    const fakeFetch = (async () =>
      new Response(JSON.stringify(DOC), { status: 200 })) as unknown as typeof fetch;
    const r = await refreshCatalogue({
      url: "https://example.invalid/c.json",
      cacheFile: `${dir.path}/c.json`,
      ttlMs: 1e9,
      fetch: fakeFetch,
    });
    expect(r).toMatchObject({ ok: true, from: "network", models: 3 });
  });
});
