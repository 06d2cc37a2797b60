// Effect receipts (SPEC D4), turn leases (D1, H1) and route cooldowns (U4) through the state
// interface, on every engine: what keeps a tool from running twice and a session to one turn.
import type { AssistantMessage } from "@iris/llm";
import { expect, it } from "vitest";
import type { Store } from "../../src/state.js";
import { describeEngines } from "./engines.js";

const calling = (...names: string[]): AssistantMessage => ({
  role: "assistant",
  parts: names.map((name, i) => ({
    type: "toolCall" as const,
    callId: `c${i + 1}`,
    name,
    argumentsJson: "{}",
  })),
  origin: { provider: "p", apiMode: "chat_completions", model: "m" },
  usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  stopReason: "tool_calls",
});

async function anchored(store: Store) {
  const s = await store.createSession({ source: "cli" });
  await store.appendNode(s.id, { kind: "message", message: { role: "user", content: "go" } });
  const node = await store.appendNode(s.id, { kind: "message", message: calling("terminal", "write_file") });
  const begin = (op: string, extra = {}) =>
    store.beginEffect({
      sessionId: s.id,
      logicalOpId: op,
      step: 1,
      tool: "terminal",
      argsFingerprint: "f",
      nodeId: node.id,
      callId: "c1",
      ...extra,
    });
  return { s, node, begin };
}

describeEngines("effect receipts", (ctx) => {
  it("begins once per logical op: a second begin replays, reports uncertain, or a person's verdict", async () => {
    const { store } = ctx;
    const { begin } = await anchored(store);
    const first = await begin("op-1");
    expect(first.kind).toBe("started");
    expect((await begin("op-1")).kind).toBe("uncertain");
    expect((await store.listUnresolved()).map((e) => e.id)).toEqual([first.effect.id]);
    await store.completeEffect(first.effect.id, { out: "done" });
    const again = await begin("op-1");
    expect(again).toMatchObject({ kind: "replay", effect: { status: "completed", result: { out: "done" } } });
    await expect(store.failEffect(first.effect.id, "late")).rejects.toMatchObject({ code: "effect_state" });
    const second = await begin("op-2");
    await store.resolveEffect(second.effect.id, "not_applied", "checked the server");
    expect(await begin("op-2")).toMatchObject({
      kind: "resolved",
      effect: { evidence: "checked the server" },
    });
    const third = await begin("op-3");
    expect(await store.failEffect(third.effect.id, "boom")).toMatchObject({
      status: "failed",
      error: "boom",
    });
    expect(await store.listUnresolved()).toEqual([]);
    expect((await store.findEffectByOp("op-2"))?.id).toBe(second.effect.id);
    expect((await store.findEffect(second.effect.id.slice(0, 30)))?.id).toBe(second.effect.id);
    expect((await store.listEffects()).map((e) => e.logicalOpId)).toEqual(["op-1", "op-2", "op-3"]);
  });

  it("refuses a receipt without a stored anchor carrying the call, and one begun with another anchor", async () => {
    const { store } = ctx;
    const { s, node, begin } = await anchored(store);
    await expect(begin("op-x", { nodeId: "missing" })).rejects.toMatchObject({
      code: "effect_not_checkpointed",
    });
    await expect(begin("op-x", { tool: "patch" })).rejects.toMatchObject({ code: "effect_not_checkpointed" });
    const other = await store.createSession({ source: "cli" });
    await expect(begin("op-x", { sessionId: other.id })).rejects.toMatchObject({
      code: "effect_not_checkpointed",
    });
    await begin("op-1");
    await expect(begin("op-1", { step: 2 })).rejects.toMatchObject({ code: "effect_conflict" });
    expect((await store.getEffect((await store.findEffectByOp("op-1"))!.id)).nodeId).toBe(node.id);
    expect(await store.listUnresolved(s.id)).toHaveLength(1);
  });

  it("keeps the files a call writes, as they were, with its receipt (newest call first)", async () => {
    const { store } = ctx;
    const { node, begin } = await anchored(store);
    await begin("op-1", {
      filesBefore: [
        { path: "/w/a.txt", content: Buffer.from("before\n") },
        { path: "/w/new.txt", content: null },
        { path: "/w/big.bin", content: null, skipped: "too large" },
      ],
    });
    const snaps = await store.fileSnapshots([node.id]);
    expect(snaps.map((x) => [x.path, x.content?.toString("utf8") ?? null, x.skipped ?? null])).toEqual(
      expect.arrayContaining([
        ["/w/a.txt", "before\n", null],
        ["/w/new.txt", null, null],
        ["/w/big.bin", null, "too large"],
      ]),
    );
    expect(await store.fileSnapshots([])).toEqual([]);
  });
});

describeEngines("turn leases and route cooldowns", (ctx) => {
  const me = { pid: 100, host: "a" };
  const other = { pid: 200, host: "b" };
  const alive = () => true;

  it("gives a session's turn to one holder at a time; an expired lease is taken over", async () => {
    const { leases } = ctx.store;
    await ctx.store.createSession({ source: "cli", id: "s1" });
    const got = await leases.acquire({ sessionId: "s1", holder: me, ttlMs: 1000, now: 0, isAlive: alive });
    expect(got).toMatchObject({ ok: true, lease: { pid: 100, expiresAt: 1000 } });
    const refused = await leases.acquire({
      sessionId: "s1",
      holder: other,
      ttlMs: 1000,
      now: 500,
      isAlive: alive,
    });
    expect(refused).toMatchObject({ ok: false, heldBy: { pid: 100, host: "a" } });
    expect(await leases.renew("s1", me, 3000)).toBe(true);
    expect(await leases.renew("s1", other, 3000)).toBe(false);
    expect(
      (await leases.acquire({ sessionId: "s1", holder: other, ttlMs: 1000, now: 2000, isAlive: alive })).ok,
    ).toBe(false);
    const taken = await leases.acquire({
      sessionId: "s1",
      holder: other,
      ttlMs: 1000,
      now: 3001,
      isAlive: alive,
    });
    expect(taken.ok).toBe(true);
    expect(await leases.list()).toMatchObject([{ sessionId: "s1", pid: 200, host: "b" }]);
    await leases.release("s1", me); // not the holder: nothing happens
    expect(await leases.list()).toHaveLength(1);
    await leases.release("s1", other);
    expect(await leases.list()).toEqual([]);
  });

  it("takes over at once a lease whose holder on this host died", async () => {
    const { leases } = ctx.store;
    await ctx.store.createSession({ source: "cli", id: "s1" });
    await leases.acquire({ sessionId: "s1", holder: me, ttlMs: 60_000, now: 0, isAlive: alive });
    const next = { pid: 101, host: "a" };
    expect(
      (await leases.acquire({ sessionId: "s1", holder: next, ttlMs: 1000, now: 1, isAlive: () => false })).ok,
    ).toBe(true);
  });

  it("lets exactly one of many simultaneous acquirers win", async () => {
    const { leases } = ctx.store;
    await ctx.store.createSession({ source: "cli", id: "race" });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        leases.acquire({
          sessionId: "race",
          holder: { pid: 1000 + i, host: `h${i}` },
          ttlMs: 60_000,
          now: 5,
          isAlive: alive,
        }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it("keeps route cooldowns until they expire", async () => {
    const { routeCooldowns } = ctx.store;
    await routeCooldowns.set("p/m", 5000, "429", 1000);
    expect(await routeCooldowns.get("p/m")).toEqual({
      routeKey: "p/m",
      untilMs: 5000,
      reason: "429",
      setAt: 1000,
    });
    await routeCooldowns.set("p/m", 9000.6, undefined, 2000);
    expect((await routeCooldowns.get("p/m"))?.untilMs).toBe(9001);
    await routeCooldowns.set("q/n", 1500, "500", 1000);
    expect((await routeCooldowns.listActive(2000)).map((r) => r.routeKey)).toEqual(["p/m"]);
    await routeCooldowns.clear("p/m");
    expect(await routeCooldowns.get("p/m")).toBeUndefined();
  });
});
