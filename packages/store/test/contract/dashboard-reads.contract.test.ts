// The dashboard's reads over the conversation tables (SPEC E1, F3) through the state interface, on
// every engine: daily usage sums that follow each call and each deleted session, keyset pages of
// sessions, a session's nodes, forks and branch tips, and the running turns.
import { expect, it } from "vitest";
import type { Store } from "../../src/state.js";
import { describeEngines } from "./engines.js";
import { assistant, user } from "./messages.js";

const today = () => Math.floor(Date.now() / 86_400_000);

async function call(
  store: Store,
  sessionId: string,
  provider: string,
  model: string,
  input: number,
  cost: number,
) {
  await store.recordUsage({
    sessionId,
    provider,
    model,
    usage: {
      inputTokens: input,
      outputTokens: 20,
      cacheReadTokens: 10,
      cacheWriteTokens: 5,
      reasoningTokens: 0,
    },
    costUsd: cost,
    latencyMs: 5,
    status: "ok",
  });
}

describeEngines("dashboard reads: usage", (ctx) => {
  it("sums calls per day by model, provider, platform and session; a deleted session leaves nothing", async () => {
    const { store } = ctx;
    const reads = store.dashboard.reads;
    const a = await store.createSession({ source: "cli" });
    const b = await store.createSession({ source: "gateway:irc" });
    await call(store, a.id, "openai", "gpt-4o", 100, 0.5);
    await call(store, a.id, "openai", "gpt-4o", 200, 0.25);
    await call(store, b.id, "anthropic", "claude", 50, 1);
    const d = today();
    const byModel = await reads.usageByDay(d - 1, d, "model");
    expect(byModel.map((r) => [r.day, r.key, r.calls, r.inputTokens, r.outputTokens, r.costUsd])).toEqual([
      [new Date(d * 86_400_000).toISOString().slice(0, 10), "anthropic/claude", 1, 50, 20, 1],
      [new Date(d * 86_400_000).toISOString().slice(0, 10), "openai/gpt-4o", 2, 300, 40, 0.75],
    ]);
    expect((await reads.usageByDay(d, d, "provider")).map((r) => [r.key, r.calls])).toEqual([
      ["anthropic", 1],
      ["openai", 2],
    ]);
    expect((await reads.usageByDay(d, d, "platform")).map((r) => r.key)).toEqual(["cli", "gateway:irc"]);
    const bySession = await reads.usageByDay(d, d, "session");
    expect(bySession.find((r) => r.key === a.id)).toMatchObject({
      calls: 2,
      inputTokens: 300,
      cacheReadTokens: 20,
    });
    expect(await reads.usageByDay(d + 1, d + 5, "model")).toEqual([]);
    expect(await reads.usageOnDays(d, d)).toEqual({
      calls: 3,
      inputTokens: 350,
      outputTokens: 60,
      cacheReadTokens: 30,
      cacheWriteTokens: 15,
      costUsd: 1.75,
    });

    await store.deleteSession(a.id);
    expect((await reads.usageByDay(d, d, "model")).map((r) => [r.key, r.calls])).toEqual([
      ["anthropic/claude", 1],
    ]);
    expect((await reads.usageOnDays(d, d)).calls).toBe(1);
    await store.deleteSession(b.id);
    expect(await reads.usageOnDays(d, d)).toEqual({
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0,
    });
  });
});

describeEngines("dashboard reads: sessions and nodes", (ctx) => {
  it("pages sessions newest first by a keyset cursor, with the last activity of each", async () => {
    const { store } = ctx;
    const reads = store.dashboard.reads;
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await store.createSession({ source: "cli", title: `s${i}` })).id);
    const node = await store.appendNode(ids[6]!, { kind: "message", message: user("hi") });
    const seen: string[] = [];
    let cursor: { startedAt: number; rowid: number } | undefined;
    for (;;) {
      const page = await reads.sessionsPage(3, cursor);
      seen.push(...page.map((r) => r.id));
      if (page.length < 3) break;
      const last = page.at(-1)!;
      cursor = { startedAt: last.startedAt, rowid: last.rowid };
    }
    expect(seen).toEqual([...ids].reverse());
    expect(await reads.sessionCount()).toBe(7);
    const [newest] = await reads.sessionsPage(1);
    expect(newest).toMatchObject({ id: ids[6], title: "s6", source: "cli", costUsd: 0, endedAt: null });
    expect(newest?.lastActivity).toBe(node.createdAt);
    expect((await reads.sessionsById([ids[2]!, "no-such-id", ids[0]!])).map((r) => r.title)).toEqual([
      "s2",
      "s0",
    ]);
    expect(await reads.sessionIdsWithPrefix(ids[0]!.slice(0, 36))).toEqual([ids[0]]);
    expect(await reads.sessionIdsWithPrefix("zz-nothing")).toEqual([]);
  });

  it("reads a session's nodes by page, its forks, branch tips and children", async () => {
    const { store } = ctx;
    const reads = store.dashboard.reads;
    const s = (await store.createSession({ source: "cli" })).id;
    const q = await store.appendNode(s, { kind: "message", message: user("question") });
    const a1 = await store.appendNode(s, { kind: "message", message: assistant("one") });
    const edited = await store.editUserMessage(q.id, user("question, edited"));
    expect((await reads.nodesPage(s, 0, 2)).map((n) => n.id)).toEqual([q.id, a1.id]);
    expect((await reads.nodesPage(s, a1.seq, 10)).map((n) => n.id)).toEqual([edited.id]);
    // The edit is a sibling of the question: they fork at the root (no parent), so no fork point.
    expect([...(await reads.forkPoints(s))]).toEqual([]);
    const b2 = await store.appendNode(s, { parentId: q.id, kind: "message", message: user("other") });
    expect([...(await reads.forkPoints(s))]).toEqual([q.id]);
    expect((await reads.branchTips(s)).map((t) => t.id)).toEqual([a1.id, edited.id, b2.id]);
    expect((await reads.branchTips(s))[0]?.createdAt).toBe(a1.createdAt);
    const child = await store.createSession({ source: "delegate", parentSessionId: s, title: "sub" });
    expect(await reads.childSessions(s)).toEqual([{ id: child.id, title: "sub", source: "delegate" }]);
  });

  it("lists the running turns: live leases only", async () => {
    const { store } = ctx;
    const s = (await store.createSession({ source: "cli" })).id;
    const holder = { pid: process.pid, host: "this-host" };
    const now = Date.now();
    expect(
      (await store.leases.acquire({ sessionId: s, holder, ttlMs: 60_000, now, isAlive: () => true })).ok,
    ).toBe(true);
    expect(await store.dashboard.reads.runningTurns(now)).toEqual([
      { sessionId: s, pid: process.pid, acquiredAt: now },
    ]);
    expect(await store.dashboard.reads.runningTurns(now + 120_000)).toEqual([]);
  });
});
