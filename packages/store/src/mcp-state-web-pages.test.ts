// Migration 0032's two tables through the store's getters, on a real SQLite file: MCP states are
// per process (replaced whole, removed on close, seen from a second connection), and the web page
// index keeps pages across a reopen, replaces a page read again, ranks by the terms, and keeps
// only the newest WEB_PAGES_KEPT.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteEngine as openStore, type SqliteEngine as Store } from "./store.js";
import { WEB_PAGES_KEPT } from "./web-pages.js";

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-0032-"));
  store = openStore(join(dir, "state.db"));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("mcpStates", () => {
  it("keeps each process's rows apart, replaces them whole, and removes them on clear", () => {
    const gw = { platform: "gateway", pid: 4242, startedAt: 1 };
    store.mcpStates.record(gw, [
      { server: "files", state: "ready", transport: "stdio", tools: 3, restarts: 0 },
      {
        server: "web",
        state: "restarting",
        transport: "http",
        tools: 0,
        restarts: 2,
        lastError: "ECONNREFUSED",
      },
    ]);
    store.mcpStates.record({ platform: "serve", pid: 7, startedAt: 2 }, [
      { server: "files", state: "ready", transport: "stdio", tools: 3, restarts: 0 },
    ]);
    store.mcpStates.record(gw, [
      { server: "files", state: "failed", transport: "stdio", tools: 0, restarts: 5 },
    ]);
    const other = openStore(join(dir, "state.db"), { readonly: true });
    try {
      const rows = other.mcpStates.list();
      expect(rows.map((r) => [r.platform, r.pid, r.server, r.state, r.lastError])).toEqual([
        ["gateway", 4242, "files", "failed", undefined],
        ["serve", 7, "files", "ready", undefined],
      ]);
    } finally {
      other.close();
    }
    store.mcpStates.clear("gateway", 4242);
    expect(store.mcpStates.list().map((r) => r.platform)).toEqual(["serve"]);
  });
});

describe("webPages", () => {
  it("finds a page by its terms after a reopen, the best match first", () => {
    store.webPages.put({
      url: "https://a/1",
      title: "Streams",
      text: "node streams guide",
      terms: "streams node streams guide",
    });
    store.webPages.put({ url: "https://a/2", title: "날씨", text: "서울 날씨", terms: "날씨 서울 날씨" });
    store.webPages.put({ url: "https://a/3", title: "Other", text: "node only", terms: "other node only" });
    store.close();
    store = openStore(join(dir, "state.db"));
    expect(store.webPages.search(["node", "streams"], 5).map((h) => h.url)).toEqual([
      "https://a/1",
      "https://a/3",
    ]);
    expect(store.webPages.search(["날씨"], 5).map((h) => h.url)).toEqual(["https://a/2"]);
    expect(store.webPages.search(['"quoted" OR x'], 5)).toEqual([]);
    expect(store.webPages.search([], 5)).toEqual([]);
  });

  it("replaces a page read again and keeps only the newest", () => {
    store.webPages.put({ url: "https://a/1", title: "Old", text: "old", terms: "old" }, 1);
    store.webPages.put({ url: "https://a/1", title: "New", text: "new", terms: "new" }, 2);
    expect(store.webPages.search(["old"], 5)).toEqual([]);
    expect(store.webPages.search(["new"], 5).map((h) => h.title)).toEqual(["New"]);
    store.atomically(() => {
      for (let i = 0; i < WEB_PAGES_KEPT + 5; i++)
        store.webPages.put({ url: `https://b/${i}`, title: "b", text: "b", terms: `many p${i}` }, 10 + i);
    });
    expect(store.webPages.count()).toBe(WEB_PAGES_KEPT);
    expect(store.webPages.search(["p0"], 5)).toEqual([]);
    expect(store.webPages.search([`p${WEB_PAGES_KEPT + 4}`], 5)).toHaveLength(1);
  });
});
