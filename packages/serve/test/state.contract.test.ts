// `iris serve`'s own state (src/state/), the same on every engine: conversations and Idempotency-Key
// answers outlive the process, expire, stay within their bound and are kept apart per owner; a
// key's requests are counted in a sliding minute. On Postgres, replicas share all of it.
import type { Message } from "@iris/llm";
import { expect, it } from "vitest";
import { describeServeEngines } from "./state-engines.js";

const hi: Message[] = [{ role: "user", content: "hi" }];
const answer = { status: 200, headers: { "content-type": "application/json" }, body: '{"ok":1}' };

describeServeEngines("serve state", (ctx) => {
  it("keeps a conversation for its owner only, until it expires, across a restart", async () => {
    await ctx.state.putResponse("alice", ["resp_1"], hi, { expiresAt: 2000, max: 10, now: 0 });
    const restarted = await ctx.openAnother();
    expect((await restarted.responseEntry("alice", "resp_1", 1999))?.history).toEqual(hi);
    expect(await restarted.responseEntry("bob", "resp_1", 0)).toBeUndefined();
    expect(await restarted.responseEntry("alice", "resp_1", 2000)).toBeUndefined();
  });

  it("keeps at most `max`, dropping the oldest written, and sweeps expired rows on a write", async () => {
    const s = ctx.state;
    await s.putResponse("a", ["r1"], hi, { expiresAt: 100, max: 2, now: 0 });
    await s.putResponse("a", ["r2"], hi, { expiresAt: 10_000, max: 2, now: 0 });
    await s.putResponse("a", ["r1"], hi, { expiresAt: 10_000, max: 2, now: 0 }); // rewritten: newest now
    await s.putResponse("a", ["r3"], hi, { expiresAt: 10_000, max: 2, now: 0 });
    expect(await s.responseCount()).toBe(2);
    expect(await s.responseEntry("a", "r2", 0)).toBeUndefined();
    expect((await s.responseEntry("a", "r1", 0))?.history).toEqual(hi);
    await s.putResponse("a", ["r4"], hi, { expiresAt: 500, max: 10, now: 0 });
    await s.putResponse("a", ["r5"], hi, { expiresAt: 20_000, max: 10, now: 10_000 });
    expect(await s.responseCount()).toBe(1);
  });

  it("keeps a record beside the conversation under several keys, and deletes for the owner only", async () => {
    const s = ctx.state;
    await s.putResponse("a", ["resp_1", "conv:x"], hi, { expiresAt: 10_000, max: 10, now: 0 }, { n: 1 });
    expect(await s.responseEntry("a", "resp_1", 0)).toEqual({ history: hi, record: { n: 1 } });
    expect((await s.responseEntry("a", "conv:x", 0))?.history).toEqual(hi);
    await s.putResponse("a", ["resp_2"], hi, { expiresAt: 10_000, max: 10, now: 0 });
    expect(await s.responseEntry("a", "resp_2", 0)).toEqual({ history: hi });
    expect(await s.deleteResponse("b", "resp_1", 0)).toBe(false);
    expect(await s.deleteResponse("a", "resp_1", 0)).toBe(true);
    expect(await s.responseEntry("a", "resp_1", 0)).toBeUndefined();
    expect((await s.responseEntry("a", "conv:x", 0))?.history).toEqual(hi);
    expect(await s.deleteResponse("a", "resp_1", 0)).toBe(false);
  });

  it("keeps an idempotency answer across a restart until it expires, bounded, the newest winning", async () => {
    await ctx.state.putAnswer("s1", answer, { expiresAt: 1000, max: 2, now: 0 });
    const s = await ctx.openAnother();
    expect(await s.answer("s1", 999)).toEqual(answer);
    expect(await s.answer("s1", 1000)).toBeUndefined();
    await s.putAnswer("s2", answer, { expiresAt: 5000, max: 2, now: 0 });
    await s.putAnswer("s3", answer, { expiresAt: 5000, max: 2, now: 0 });
    expect(await s.answerCount()).toBe(2);
    expect(await s.answer("s1", 0)).toBeUndefined();
    await s.putAnswer("s2", { ...answer, body: "again" }, { expiresAt: 5000, max: 2, now: 0 });
    expect((await s.answer("s2", 0))?.body).toBe("again");
  });

  it("counts a key's requests in a sliding minute and says when the next one may come", async () => {
    const s = ctx.state;
    expect(await s.countRequest("k", 2, 0)).toBeUndefined();
    expect(await s.countRequest("k", 2, 30_000)).toBeUndefined();
    expect(await s.countRequest("k", 2, 45_000)).toBe(15_000); // the first leaves at 60 s
    expect(await s.countRequest("other", 2, 45_000)).toBeUndefined();
    // A refused request is not counted: at 60 s one slot is free again.
    expect(await s.countRequest("k", 2, 60_000)).toBeUndefined();
    expect(await s.countRequest("k", 2, 60_001)).toBe(29_999);
  });

  it.runIf(ctx.engine === "postgres")(
    "shares everything between replicas: conversations, answers, the bound and the minute's count",
    async () => {
      const replicas = [ctx.state, await ctx.openAnother(), await ctx.openAnother()];
      await replicas[0]?.putResponse("a", ["resp_a"], hi, { expiresAt: 10_000, max: 5, now: 0 });
      expect((await replicas[1]?.responseEntry("a", "resp_a", 0))?.history).toEqual(hi);
      await replicas[2]?.putAnswer("scope", answer, { expiresAt: 10_000, max: 5, now: 0 });
      expect(await replicas[0]?.answer("scope", 0)).toEqual(answer);
      // 30 writes at once from three replicas, five kept.
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          replicas[i % 3]?.putResponse("a", [`r${i}`], hi, { expiresAt: 10_000, max: 5, now: 0 }),
        ),
      );
      expect(await replicas[1]?.responseCount()).toBe(5);
      // 12 requests at once through three replicas against a limit of 10: 10 pass.
      const counted = await Promise.all(
        Array.from({ length: 12 }, (_, i) => replicas[i % 3]?.countRequest("key", 10, 1000 + i)),
      );
      expect(counted.filter((r) => r === undefined)).toHaveLength(10);
    },
  );
});

describeServeEngines("serve state: recorded streams", (ctx) => {
  const ev = (seq: number) => ({ seq, type: `t${seq}`, data: `{"sequence_number":${seq}}` });

  it("keeps a stream's events in order for its owner, readable from another process while it runs", async () => {
    const s = ctx.state.streams;
    await s.open("alice", "resp_1", { expiresAt: 10_000, max: 10, now: 0 });
    await s.append("resp_1", [ev(0), ev(1), ev(2)], { done: false, now: 5 });
    const other = (await ctx.openAnother()).streams;
    expect(await other.status("alice", "resp_1", 10)).toEqual({ done: false, aliveAt: 5 });
    expect(await other.status("bob", "resp_1", 10)).toBeUndefined();
    expect((await other.after("resp_1", 0, 10)).map((e) => e.seq)).toEqual([1, 2]);
    expect(await other.after("resp_1", -1, 1)).toEqual([ev(0)]);
    await s.append("resp_1", [], { done: false, now: 7 }); // a beat
    expect((await other.status("alice", "resp_1", 10))?.aliveAt).toBe(7);
    await s.append("resp_1", [ev(3)], { done: true, now: 9 });
    expect(await other.status("alice", "resp_1", 10)).toEqual({ done: true, aliveAt: 9 });
    expect((await other.after("resp_1", 2, 10)).map((e) => e.type)).toEqual(["t3"]);
    expect(await other.status("alice", "resp_1", 10_000)).toBeUndefined(); // expired
  });

  it("drops expired streams and the oldest over the bound, with their events", async () => {
    const s = ctx.state.streams;
    await s.open("a", "resp_old", { expiresAt: 100, max: 2, now: 0 });
    await s.append("resp_old", [ev(0)], { done: true, now: 0 });
    await s.open("a", "resp_1", { expiresAt: 1000, max: 2, now: 0 });
    await s.open("a", "resp_2", { expiresAt: 2000, max: 2, now: 0 });
    expect(await s.status("a", "resp_old", 0)).toBeUndefined();
    expect(await s.after("resp_old", -1, 10)).toEqual([]);
    await s.open("a", "resp_3", { expiresAt: 3000, max: 10, now: 1500 }); // resp_1 expired
    expect(await s.status("a", "resp_1", 0)).toBeUndefined();
    expect(await s.status("a", "resp_2", 1500)).toBeDefined();
  });
});

describeServeEngines("serve state: Idempotency-Key claims", (ctx) => {
  it("a claim holds the key off other replicas until the answer, its release or its expiry", async () => {
    const claim = { expiresAt: 1000, now: 0 };
    expect(await ctx.state.claimAnswer("k", claim)).toBe("claimed");
    const other = await ctx.openAnother();
    // SQLite serves from one process (its requests wait in memory): it writes no claim.
    const held = ctx.engine === "postgres" ? "running" : "claimed";
    expect(await other.claimAnswer("k", claim)).toBe(held);
    expect(await other.answer("k", 0)).toBeUndefined(); // a claim is no answer
    await ctx.state.releaseClaim("k");
    expect(await other.claimAnswer("k", claim)).toBe("claimed");
    expect(await ctx.state.claimAnswer("k", { expiresAt: 3000, now: 1000 })).toBe("claimed"); // expired
    await ctx.state.putAnswer("k", answer, { expiresAt: 5000, max: 10, now: 1000 });
    expect(await other.claimAnswer("k", { expiresAt: 6000, now: 1000 })).toEqual(answer);
    await other.releaseClaim("k"); // never drops an answer
    expect(await ctx.state.answer("k", 1000)).toEqual(answer);
  });
});
