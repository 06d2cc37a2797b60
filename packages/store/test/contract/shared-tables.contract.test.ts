// The tables every process shares with the dashboard, through the state interface on every engine:
// the ask board (first answer wins, a gone asker's asks withdrawn, presence), the platforms'
// health, each process's MCP server states, and the pages the web tools read (ranked by terms,
// replaced when read again, the newest WEB_PAGES_KEPT kept).
import { hostname } from "node:os";
import { expect, it } from "vitest";
import { WEB_PAGES_KEPT } from "../../src/web-pages.js";
import { describeEngines } from "./engines.js";

describeEngines("ask board", (ctx) => {
  it("takes the first answer only, withdraws what a gone process left, and forgets a session", async () => {
    const { store } = ctx;
    const board = store.dashboard.asks;
    const s = (await store.createSession({ source: "cli" })).id;
    await board.publish({
      id: "r1",
      sessionId: s,
      kind: "approval",
      source: "cli",
      question: { command: "rm -rf x" },
    });
    expect((await board.waiting()).map((a) => [a.id, a.pid, a.state])).toEqual([
      ["r1", process.pid, "waiting"],
    ]);
    expect(await board.answer("r1", "once", "dashboard")).toBe(true);
    expect(await board.answer("r1", "deny", "dashboard")).toBe(false);
    expect(await board.get("r1")).toMatchObject({
      sessionId: s,
      kind: "approval",
      state: "answered",
      answer: "once",
      answeredBy: "dashboard",
      question: { command: "rm -rf x" },
    });
    expect((await board.get("r1"))?.answeredAt).toBeGreaterThan(0);
    expect(await board.get("nope")).toBeUndefined();

    await board.publish({
      id: "r2",
      sessionId: s,
      kind: "clarify",
      source: "cli",
      question: { question: "?" },
    });
    expect(await board.withdrawOrphans(() => true)).toBe(0);
    expect(await board.withdrawOrphans(() => false)).toBe(1);
    expect(await board.waiting()).toEqual([]);
    expect(await board.withdraw("r2")).toBe(false);
    expect((await board.forSession(s)).map((a) => a.state)).toEqual(["answered", "withdrawn"]);
    await board.forgetSession(s);
    expect(await board.forSession(s)).toEqual([]);
  });

  it("keeps the dashboard's presence, cleared only by its own process", async () => {
    const board = ctx.store.dashboard.asks;
    expect(await board.presenceSeenAt()).toBeUndefined();
    await board.touchPresence(1234);
    await board.touchPresence(5678);
    expect(await board.presenceSeenAt()).toBe(5678);
    await board.clearPresence();
    expect(await board.presenceSeenAt()).toBeUndefined();
  });
});

describeEngines("platform health", (ctx) => {
  it("keeps the last error when a later state has none", async () => {
    const h = ctx.store.dashboard.health;
    await h.set("irc", "degraded", "connection refused", 1);
    await h.set("irc", "stopped", undefined, 2);
    await h.set("discord", "connected", undefined, 3);
    const rows = await h.list();
    expect(rows.map(({ host: _host, ...r }) => r)).toEqual([
      { platform: "discord", state: "connected", pid: process.pid, lastError: null, updatedAt: 3 },
      { platform: "irc", state: "stopped", pid: process.pid, lastError: "connection refused", updatedAt: 2 },
    ]);
    // A shared engine names the machine each gateway runs on (a pid means nothing elsewhere).
    for (const r of rows) expect(r.host === undefined || r.host === hostname()).toBe(true);
  });
});

describeEngines("MCP server states", (ctx) => {
  it("keeps each process's rows apart, replaces them whole, and removes them on clear", async () => {
    const states = ctx.store.mcpStates;
    const gw = { platform: "gateway", pid: 4242, startedAt: 1 };
    await states.record(gw, [
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
    await states.record({ platform: "serve", pid: 7, startedAt: 2 }, [
      { server: "files", state: "ready", transport: "stdio", tools: 3, restarts: 0 },
    ]);
    expect((await states.list()).map((r) => [r.platform, r.server, r.lastError])).toEqual([
      ["gateway", "files", undefined],
      ["gateway", "web", "ECONNREFUSED"],
      ["serve", "files", undefined],
    ]);
    await states.record(
      gw,
      [{ server: "files", state: "failed", transport: "stdio", tools: 0, restarts: 5 }],
      99,
    );
    const rows = await states.list();
    expect(rows.map((r) => [r.platform, r.pid, r.server, r.state, r.tools, r.restarts, r.lastError])).toEqual(
      [
        ["gateway", 4242, "files", "failed", 0, 5, undefined],
        ["serve", 7, "files", "ready", 3, 0, undefined],
      ],
    );
    expect(rows[0]).toMatchObject({ transport: "stdio", startedAt: 1, updatedAt: 99 });
    await states.clear("gateway", 4242);
    expect((await states.list()).map((r) => r.platform)).toEqual(["serve"]);
    await states.record({ platform: "serve", pid: 7, startedAt: 2 }, []);
    expect(await states.list()).toEqual([]);
  });
});

describeEngines("web pages", (ctx) => {
  it("finds a page by its terms, the best match first; terms are never query syntax", async () => {
    const pages = ctx.store.webPages;
    await pages.put({
      url: "https://a/1",
      title: "Streams",
      text: "node streams guide",
      terms: "streams node streams guide",
    });
    await pages.put({ url: "https://a/2", title: "날씨", text: "서울 날씨", terms: "날씨 서울 날씨" });
    await pages.put(
      { url: "https://a/3", title: "Other", text: "node only", terms: "other node only" },
      Date.now() + 1,
    );
    expect((await pages.search(["node", "streams"], 5)).map((h) => h.url)).toEqual([
      "https://a/1",
      "https://a/3",
    ]);
    expect((await pages.search(["streams"], 5))[0]).toMatchObject({
      url: "https://a/1",
      title: "Streams",
      text: "node streams guide",
    });
    expect((await pages.search(["날씨"], 5)).map((h) => h.url)).toEqual(["https://a/2"]);
    expect((await pages.search(["node"], 1)).length).toBe(1);
    for (const t of ['"quoted" OR x', "a & b", "!", "*", "("])
      expect(await pages.search([t], 5), t).toEqual([]);
    expect(await pages.search([], 5)).toEqual([]);
    expect(await pages.search([""], 5)).toEqual([]);
    expect(await pages.count()).toBe(3);
  });

  it("replaces a page read again and keeps only the newest", async () => {
    const pages = ctx.store.webPages;
    await pages.put({ url: "https://a/1", title: "Old", text: "old", terms: "old" }, 1);
    await pages.put({ url: "https://a/1", title: "New", text: "new", terms: "new" }, 2);
    expect(await pages.search(["old"], 5)).toEqual([]);
    expect((await pages.search(["new"], 5)).map((h) => [h.title, h.readAt])).toEqual([["New", 2]]);
    expect(await pages.count()).toBe(1);
    for (let i = 0; i < WEB_PAGES_KEPT + 5; i++)
      await pages.put({ url: `https://b/${i}`, title: "b", text: "b", terms: `many p${i}` }, 10 + i);
    expect(await pages.count()).toBe(WEB_PAGES_KEPT);
    expect(await pages.search(["p0"], 5)).toEqual([]);
    expect(await pages.search(["new"], 5)).toEqual([]);
    expect(await pages.search([`p${WEB_PAGES_KEPT + 4}`], 5)).toHaveLength(1);
  }, 60_000);
});
