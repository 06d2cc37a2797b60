// The gateway's own state (src/state/), the same on every engine: inbound dedupe and the outbox
// hold across a restart, a chat follows a session split, pairing codes expire, are bounded and
// lock after wrong guesses, login tokens are kept as hashes and end when re-issued, and a name
// binds to the first identity that spoke. On Postgres several gateway processes share all of it:
// a message or a reply part raced by many processes is claimed by exactly one, and a connection
// lock has one holder, taken over when the holder's connection dies.
import { expect, it } from "vitest";
import { GATEWAY_TABLES, PAIRING_MAX_FAILURES } from "../src/state/index.js";
import { describeGatewayEngines } from "./state-engines.js";

const msg = (id: string) => ({ platform: "irc", messageId: id, chatKey: "irc:dm:ann", chatId: "ann" });
const part = { logicalKey: "irc:m1:reply#0", platform: "irc", chatId: "ann", threadId: null, text: "hi" };
const opts = { ttlMs: 60_000, maxPending: 2, now: 1_000 };

describeGatewayEngines("gateway state", (ctx) => {
  it("claims a platform message once, also after a restart, and lists what was never answered", async () => {
    const s = ctx.tables.state;
    expect(await s.claimInbound(msg("m1"), 10)).toBe(true);
    expect(await s.claimInbound(msg("m1"), 11)).toBe(false);
    expect(await s.claimInbound(msg("m2"), 12)).toBe(true);
    await s.finishInbound("irc", "m2");
    await ctx.storeOf(ctx.tables).close();
    const restarted = (await ctx.openAnother()).state;
    expect(await restarted.claimInbound(msg("m1"))).toBe(false);
    expect(await restarted.unansweredInbound("irc")).toEqual([
      {
        platform: "irc",
        messageId: "m1",
        chatKey: "irc:dm:ann",
        chatId: "ann",
        threadId: null,
        receivedAt: 10,
      },
    ]);
    expect(await restarted.unansweredInbound("other")).toEqual([]);
    // Only answered rows are pruned.
    expect(await restarted.pruneInbound(100)).toBe(1);
    expect(await restarted.claimInbound(msg("m2"))).toBe(true);
    expect(await restarted.claimInbound(msg("m1"))).toBe(false);
  });

  it("records an outbox part once: a second record is not fresh, sent or not, also after a restart", async () => {
    const s = ctx.tables.state;
    expect((await s.recordOutbound(part, 5)).fresh).toBe(true);
    expect(await s.recordOutbound(part)).toMatchObject({ fresh: false, state: "pending", handedAt: null });
    await s.markOutboundHanded(part.logicalKey, 7);
    await ctx.storeOf(ctx.tables).close();
    const restarted = (await ctx.openAnother()).state;
    expect(await restarted.pendingOutbound("irc")).toEqual([{ ...part, state: "pending", handedAt: 7 }]);
    await restarted.markOutbound(part.logicalKey, "sent", 9);
    expect(await restarted.pendingOutbound("irc")).toEqual([]);
    expect(await restarted.recordOutbound(part)).toMatchObject({ fresh: false, state: "sent" });
    expect(await restarted.outbound("nope")).toBeUndefined();
    expect(await restarted.pruneOutbound(6)).toBe(1);
    expect(await restarted.outbound(part.logicalKey)).toBeUndefined();
  });

  it("maps a chat to a session, lists chats by prefix, and follows a split", async () => {
    const s = ctx.tables.state;
    await s.setChatSession("irc:dm:ann", "s1", 1);
    await s.setChatSession("irc:group:#c", "s1", 2);
    await s.setChatSession("webchat:dm:bo_b%", "s3", 3);
    expect(await s.chatKeys("irc:")).toEqual(["irc:group:#c", "irc:dm:ann"]);
    expect(await s.chatKeys("webchat:dm:bo_")).toEqual(["webchat:dm:bo_b%"]);
    expect(await s.chatKeys("webchat:dm:bo%")).toEqual([]);
    expect(await s.repointChats("s1", "s2")).toBe(2);
    expect(await s.chatSession("irc:dm:ann")).toBe("s2");
    expect(await s.chatSession("irc:dm:nobody")).toBeUndefined();
  });

  it("gives one 8-character code per user until it expires, then approves it once", async () => {
    const s = ctx.tables.state;
    const a = await s.issueCode("irc", "ann", "ann", opts);
    if (!a.ok) throw new Error(a.reason);
    expect(a.code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(await s.issueCode("irc", "ann", "ann", { ...opts, now: 2_000 })).toMatchObject({
      code: a.code,
      fresh: false,
    });
    expect((await s.pendingCodes(2_000)).map((c) => c.userId)).toEqual(["ann"]);
    expect(await s.approveCode(a.code.toLowerCase(), 3_000)).toMatchObject({
      ok: true,
      approved: { userId: "ann" },
    });
    expect(await s.isApproved("irc", "ann")).toBe(true);
    expect(await s.approvedUsers()).toEqual([
      { platform: "irc", userId: "ann", userName: "ann", approvedAt: 3_000 },
    ]);
    expect((await s.approveCode(a.code, 3_000)).ok).toBe(false);
    expect(await s.revoke("ann")).toBe(1);
    expect(await s.isApproved("irc", "ann")).toBe(false);
  });

  it("refuses an expired code and limits how many wait", async () => {
    const s = ctx.tables.state;
    const a = await s.issueCode("irc", "ann", "ann", opts);
    await s.issueCode("irc", "bob", "bob", opts);
    expect(await s.issueCode("irc", "cy", "cy", opts)).toMatchObject({ ok: false });
    if (!a.ok) throw new Error(a.reason);
    expect(await s.approveCode(a.code, 1_000 + 60_001)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/expired|no pending/),
    });
    // Expired codes free their places.
    expect((await s.issueCode("irc", "cy", "cy", { ...opts, now: 1_000 + 60_001 })).ok).toBe(true);
  });

  it("locks approvals after too many wrong codes", async () => {
    const s = ctx.tables.state;
    const a = await s.issueCode("irc", "ann", "ann", opts);
    if (!a.ok) throw new Error(a.reason);
    for (let i = 0; i < PAIRING_MAX_FAILURES; i++)
      expect((await s.approveCode("WRONG234", 2_000)).ok).toBe(false);
    expect(await s.approveCode(a.code, 2_000)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/locked/),
    });
    expect(await s.isApproved("irc", "ann")).toBe(false);
  });

  it("gives each user their own token, known by its hash, and ends it when re-issued or removed", async () => {
    const ids = ctx.tables.identities;
    const ann = await ids.issueLoginToken("webchat", "ann");
    const bob = await ids.issueLoginToken("webchat", "bob");
    expect(ann.replaced).toBe(false);
    expect(ann.token).not.toBe(bob.token);
    expect((await ids.login("webchat", ann.token))?.name).toBe("ann");
    expect(await ids.login("webchat", `${ann.token}x`)).toBeUndefined();
    expect(await ids.login("webchat", "")).toBeUndefined();
    expect(await ids.login("other", ann.token)).toBeUndefined();
    expect((await ids.logins("webchat")).map((u) => u.name)).toEqual(["ann", "bob"]);
    expect(await ids.hasLogin("webchat", "ann")).toBe(true);
    expect(await ids.hasLogin("webchat", "cat")).toBe(false);
    const login = await ids.login("webchat", ann.token);
    expect(login && (await ids.holdsLogin("webchat", "ann", login.tokenId))).toBe(true);
    const again = await (await ctx.openAnother()).identities.issueLoginToken("webchat", "ann");
    expect(again.replaced).toBe(true);
    expect(await ids.login("webchat", ann.token)).toBeUndefined();
    expect(login && (await ids.holdsLogin("webchat", "ann", login.tokenId))).toBe(false);
    expect(await ids.removeLogin("webchat", "ann")).toBe(true);
    expect(await ids.login("webchat", again.token)).toBeUndefined();
    expect(await ids.removeLogin("webchat", "ann")).toBe(false);
  });

  it("binds a name to the first identity that spoke, until unbound", async () => {
    const ids = ctx.tables.identities;
    expect(await ids.bind("irc", "bob", "bob!~bob@localhost")).toBe("bob!~bob@localhost");
    expect(await ids.bind("irc", "bob", "bob!~eve@elsewhere")).toBe("bob!~bob@localhost");
    expect(await ids.bindings()).toMatchObject([
      { platform: "irc", name: "bob", identity: "bob!~bob@localhost" },
    ]);
    expect(await ids.unbind("bob", "irc")).toBe(1);
    expect(await ids.bind("irc", "bob", "bob!~eve@elsewhere")).toBe("bob!~eve@elsewhere");
  });

  it("adopts the tables a profile already has, keeping their rows", async () => {
    // What a profile from before the table set holds: the store's own migrations made the tables.
    const store = await ctx.openStoreOnly();
    const sql =
      ctx.engine === "sqlite"
        ? "INSERT INTO gateway_chats (chat_key, session_id, updated_at) VALUES ('irc:dm:old', 's-old', 1)"
        : "CREATE TABLE IF NOT EXISTS gateway_chats (chat_key TEXT PRIMARY KEY, session_id TEXT NOT NULL, updated_at BIGINT NOT NULL); SELECT 1";
    if (ctx.engine === "sqlite") {
      // A set of its own writes the row into the table migration 0012 made, before the gateway's
      // set is (re)applied: version 1's IF NOT EXISTS keeps it.
      await store.openTables({
        owner: "legacy_probe",
        sqlite: [{ version: 1, name: "row", sql }],
        postgres: [{ version: 1, name: "row", sql }],
      });
      const versions = await store.tablesVersion(GATEWAY_TABLES);
      expect(versions.version).toBe(versions.latest);
      expect(await ctx.tables.state.chatSession("irc:dm:old")).toBe("s-old");
    } else {
      // Postgres never had them in the store: the set is the one that made them.
      expect((await store.tablesVersion(GATEWAY_TABLES)).version).toBe(1);
    }
  });

  it.runIf(ctx.engine === "postgres")(
    "lets exactly one of many processes claim a message or send a reply part",
    async () => {
      const procs = [ctx.tables, await ctx.openAnother(), await ctx.openAnother()];
      const claims = await Promise.all(
        Array.from({ length: 30 }, (_, i) => procs[i % 3]?.state.claimInbound(msg(`race${i % 5}`))),
      );
      expect(claims.filter((c) => c === true)).toHaveLength(5);
      const records = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          procs[i % 3]?.state.recordOutbound({ ...part, text: `from ${i % 3}` }),
        ),
      );
      expect(records.filter((r) => r?.fresh)).toHaveLength(1);
      const codes = await Promise.all(procs.map((p) => p.state.issueCode("irc", "zed", "zed", opts)));
      expect(new Set(codes.map((c) => (c.ok ? c.code : c.reason))).size).toBe(1);
    },
  );

  it.runIf(ctx.engine === "postgres")(
    "leaves a live process's unsettled messages and replies to it, and adopts a dead one's once",
    async () => {
      const first = ctx.tables;
      expect(await first.state.claimInbound(msg("own1"))).toBe(true);
      await first.state.recordOutbound(part);
      const [second, third] = [await ctx.openAnother(), await ctx.openAnother()];
      // Another process starting beside a live one finds nothing of its to settle or resend.
      expect(await second.state.unansweredInbound("irc")).toEqual([]);
      expect(await second.state.pendingOutbound("irc")).toEqual([]);
      expect((await first.state.unansweredInbound("irc")).map((r) => r.messageId)).toEqual(["own1"]);
      // The first dies: once the server has seen its connection end (its lock free), exactly one
      // of the others takes its rows up (and keeps them: the other never sees them).
      await ctx.storeOf(first).close();
      const both = async <T>(read: (t: typeof second) => Promise<T[]>): Promise<T[]> => {
        for (;;) {
          const found = (await Promise.all([read(second), read(third)])).flat();
          if (found.length > 0) return found;
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      expect((await both((t) => t.state.unansweredInbound("irc"))).map((r) => r.messageId)).toEqual(["own1"]);
      expect((await both((t) => t.state.pendingOutbound("irc"))).map((r) => r.logicalKey)).toEqual([
        part.logicalKey,
      ]);
    },
  );

  it.runIf(ctx.engine === "postgres")(
    "gives a connection lock one holder, free again on release or when the holder's store closes",
    async () => {
      const other = await ctx.openAnother();
      const first = await ctx.tables.tryLock?.("irc-bot");
      expect(first).toBeDefined();
      expect(await other.tryLock?.("irc-bot")).toBeUndefined();
      const elsewhere = await other.tryLock?.("telegram-bot");
      expect(elsewhere).toBeDefined();
      await first?.release();
      const second = await other.tryLock?.("irc-bot");
      expect(second).toBeDefined();
      // The holder dies (its connections end): the lock is free, and the holder learns it lost it.
      const lost = second?.lost;
      await ctx.storeOf(other).close();
      expect((await lost)?.message).toMatch(/lost with their connection/);
      // Free once the server has seen the connection end.
      let third = await ctx.tables.tryLock?.("irc-bot");
      while (!third)
        third = await new Promise((r) => setTimeout(r, 20)).then(() => ctx.tables.tryLock?.("irc-bot"));
      expect(third).toBeDefined();
      await third?.release();
    },
  );
});
