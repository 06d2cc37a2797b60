// Search (SPEC D2, U7), usage (F3) and the session budget's inputs through the state interface,
// on every engine: Korean, Japanese and Chinese substrings and English words are found alike.
import { expect, it } from "vitest";
import { describeEngines } from "./engines.js";
import { user } from "./messages.js";

describeEngines("search", (ctx) => {
  async function seed() {
    const { store } = ctx;
    const s1 = (await store.createSession({ source: "cli" })).id;
    const s2 = (await store.createSession({ source: "cli" })).id;
    const add = async (session: string, text: string) =>
      (await store.appendNode(session, { kind: "message", message: user(text) })).id;
    return {
      s1,
      s2,
      ko: await add(s1, "한국어 검색 테스트 문장입니다. 데이터베이스를 확인하세요."),
      ja: await add(s1, "日本語のテキストを検索できますか"),
      zh: await add(s2, "这是中文文本搜索测试"),
      en: await add(s2, "The quick brown fox jumps over the lazy dog; ripgrep finds it."),
      syntax: await add(s1, 'He said "AND" NEAR(x y) - col:value * OR 100%_done'),
      note: (await store.appendNode(s2, { kind: "note", text: "repair: added missing tool result" })).id,
    };
  }
  const found = async (query: string, opts = {}) =>
    (await ctx.store.search(query, opts)).map((h) => h.nodeId);

  it("finds English by whole words, newest first, with the match marked", async () => {
    const ids = await seed();
    const hits = await ctx.store.search("fox");
    expect(hits.map((h) => h.nodeId)).toEqual([ids.en]);
    expect(hits[0]).toMatchObject({ sessionId: ids.s2, via: "words", role: "user" });
    expect(hits[0]?.snippet).toContain("[fox]");
    expect(await found("quick dog")).toEqual([ids.en]);
    expect(await found("repair")).toEqual([ids.note]);
    expect(await found("FOX")).toEqual([ids.en]);
    expect(await found("elephant")).toEqual([]);
  });

  it("finds Korean, Japanese and Chinese by substring", async () => {
    const ids = await seed();
    expect(await found("국어 검색")).toEqual([ids.ko]);
    expect((await ctx.store.search("한국어"))[0]).toMatchObject({ nodeId: ids.ko, via: "trigram" });
    expect((await ctx.store.search("국어"))[0]?.snippet).toContain("[국어]");
    expect(await found("베이스")).toEqual([ids.ko]); // inside 데이터베이스를
    expect(await found("テキスト")).toEqual([ids.ja]);
    expect(await found("検索")).toEqual([ids.ja]);
    expect(await found("文本搜索")).toEqual([ids.zh]);
    expect(await found("中文")).toEqual([ids.zh]);
    expect(await found("없는말")).toEqual([]);
  });

  it("falls back to substrings for a piece of a word and for short terms", async () => {
    const ids = await seed();
    expect((await ctx.store.search("ripgr"))[0]).toMatchObject({ nodeId: ids.en, via: "trigram" });
    expect((await ctx.store.search("ox"))[0]).toMatchObject({ nodeId: ids.en, via: "like" });
    expect(await found("rown", { substring: true })).toEqual([ids.en]);
  });

  it("never interprets the query: quotes, operators and wildcards are text", async () => {
    const ids = await seed();
    for (const q of ['"', '"AND"', "NEAR(x", "col:value", "*", "-", "%", "_", "100%_done", "(", "\\"])
      await expect(ctx.store.search(q)).resolves.toBeInstanceOf(Array);
    expect(await found("100%_done")).toEqual([ids.syntax]);
    expect(await found("%_d", { substring: true })).toEqual([ids.syntax]);
    expect(await found("")).toEqual([]);
  });

  it("leaves out a session and bounds the hits", async () => {
    const ids = await seed();
    expect(await found("검색", { excludeSessionId: ids.s1 })).toEqual([]);
    expect(await found("t", { limit: 2 })).toHaveLength(2);
  });
});

describeEngines("usage", (ctx) => {
  const call = {
    inputTokens: 100,
    outputTokens: 20,
    cacheReadTokens: 50,
    cacheWriteTokens: 5,
    reasoningTokens: 3,
  };

  it("records each call and moves the session's totals with it", async () => {
    const { store } = ctx;
    const s = await store.createSession({ source: "cli" });
    const row = await store.recordUsage({
      sessionId: s.id,
      taskId: "t1",
      provider: "p",
      model: "m",
      usage: call,
      costUsd: 0.25,
      latencyMs: 12.5,
      status: "ok",
    });
    expect(row).toMatchObject({
      sessionId: s.id,
      taskId: "t1",
      inputTokens: 100,
      costUsd: 0.25,
      status: "ok",
    });
    await store.recordUsage({
      sessionId: s.id,
      provider: "p",
      model: "m",
      usage: call,
      costUsd: 0.5,
      latencyMs: 1,
      status: "discarded",
    });
    expect(await store.getSession(s.id)).toMatchObject({
      apiCalls: 2,
      inputTokens: 200,
      outputTokens: 40,
      cacheReadTokens: 100,
      cacheWriteTokens: 10,
      reasoningTokens: 6,
      costUsd: 0.75,
    });
    expect((await store.usageForSession(s.id)).map((u) => u.status)).toEqual(["ok", "discarded"]);
    await expect(
      store.recordUsage({
        sessionId: "missing",
        provider: "p",
        model: "m",
        usage: call,
        costUsd: 0,
        latencyMs: 0,
        status: "ok",
      }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      store.recordUsage({
        sessionId: s.id,
        provider: "p",
        model: "m",
        usage: { ...call, inputTokens: -1 },
        costUsd: 0,
        latencyMs: 0,
        status: "ok",
      }),
    ).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("counts subagents' spending against their parent, at any depth", async () => {
    const { store } = ctx;
    const top = await store.createSession({ source: "cli" });
    const child = await store.createSession({ source: "delegate", parentSessionId: top.id });
    const grandchild = await store.createSession({ source: "delegate", parentSessionId: child.id });
    const split = await store.createSession({ source: "cli", parentSessionId: top.id });
    for (const [id, cost] of [
      [top.id, 1],
      [child.id, 2],
      [grandchild.id, 4],
      [split.id, 8],
    ] as const)
      await store.recordUsage({
        sessionId: id,
        provider: "p",
        model: "m",
        usage: call,
        costUsd: cost,
        latencyMs: 1,
        status: "ok",
      });
    expect(await store.sessionCostWithChildrenUsd(top.id)).toBe(7);
    expect(await store.sessionCostWithChildrenUsd(grandchild.id)).toBe(4);
  });

  it("adds up the time the agent worked per session", async () => {
    const { store } = ctx;
    const s = await store.createSession({ source: "cli" });
    expect(await store.activeTime.get(s.id)).toEqual({ activeMs: 0, turns: 0 });
    await store.activeTime.addTurn(s.id, 1500.4);
    await store.activeTime.addTurn(s.id, 500);
    expect(await store.activeTime.get(s.id)).toEqual({ activeMs: 2000, turns: 2 });
  });
});
