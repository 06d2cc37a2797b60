// The gateway's durable state (migration 0012): dedupe and the outbox hold across a reopen (a
// restart), and pairing codes expire, are rate limited, and lock after wrong guesses.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GatewayState, PAIRING_MAX_FAILURES } from "./gateway.js";
import { openSqliteEngine as openStore, type SqliteEngine as Store } from "./store.js";

let dir: string;
let path: string;
let store: Store;
let state: GatewayState;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-gw-state-"));
  path = join(dir, "state.db");
  store = openStore(path);
  state = new GatewayState(store.db);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});
const reopen = () => {
  store.close();
  store = openStore(path);
  state = new GatewayState(store.db);
};
const msg = (id: string) => ({ platform: "irc", messageId: id, chatKey: "irc:dm:ann", chatId: "ann" });

describe("inbound dedupe", () => {
  it("claims a platform message once, also after a restart, and lists what was never answered", () => {
    expect(state.claimInbound(msg("m1"))).toBe(true);
    expect(state.claimInbound(msg("m1"))).toBe(false);
    expect(state.claimInbound(msg("m2"))).toBe(true);
    state.finishInbound("irc", "m2");
    reopen();
    expect(state.claimInbound(msg("m1"))).toBe(false);
    expect(state.unansweredInbound("irc").map((r) => r.messageId)).toEqual(["m1"]);
    expect(state.unansweredInbound("irc")[0]).toMatchObject({ chatId: "ann", chatKey: "irc:dm:ann" });
  });
});

describe("outbox", () => {
  const part = { logicalKey: "irc:m1:reply#0", platform: "irc", chatId: "ann", threadId: null, text: "hi" };
  it("records a part once: a second record is not fresh, sent or not, also after a restart", () => {
    expect(state.recordOutbound(part).fresh).toBe(true);
    expect(state.recordOutbound(part)).toMatchObject({ fresh: false, state: "pending" });
    reopen();
    expect(state.pendingOutbound("irc").map((r) => r.logicalKey)).toEqual([part.logicalKey]);
    state.markOutbound(part.logicalKey, "sent");
    expect(state.pendingOutbound("irc")).toEqual([]);
    expect(state.recordOutbound(part)).toMatchObject({ fresh: false, state: "sent" });
  });
});

describe("chat map", () => {
  it("maps a chat to a session and follows a split", () => {
    state.setChatSession("irc:dm:ann", "s1");
    state.setChatSession("irc:group:#c", "s1");
    expect(state.repointChats("s1", "s2")).toBe(2);
    expect(state.chatSession("irc:dm:ann")).toBe("s2");
  });
});

describe("pairing", () => {
  const opts = { ttlMs: 60_000, maxPending: 2, now: 1_000 };
  it("gives one 8-character code per user until it expires, then approves it once", () => {
    const a = state.issueCode("irc", "ann", "ann", opts);
    if (!a.ok) throw new Error(a.reason);
    expect(a.code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(state.issueCode("irc", "ann", "ann", { ...opts, now: 2_000 })).toMatchObject({
      code: a.code,
      fresh: false,
    });
    expect(state.approveCode(a.code.toLowerCase(), 3_000)).toMatchObject({
      ok: true,
      approved: { userId: "ann" },
    });
    expect(state.isApproved("irc", "ann")).toBe(true);
    expect(state.approveCode(a.code, 3_000).ok).toBe(false);
    expect(state.revoke("ann")).toBe(1);
    expect(state.isApproved("irc", "ann")).toBe(false);
  });

  it("refuses an expired code and limits how many wait", () => {
    const a = state.issueCode("irc", "ann", "ann", opts);
    state.issueCode("irc", "bob", "bob", opts);
    expect(state.issueCode("irc", "cy", "cy", opts)).toMatchObject({ ok: false });
    if (!a.ok) throw new Error(a.reason);
    expect(state.approveCode(a.code, 1_000 + 60_001)).toMatchObject({ ok: false });
    // Expired codes free their places.
    expect(state.issueCode("irc", "cy", "cy", { ...opts, now: 1_000 + 60_001 }).ok).toBe(true);
  });

  it("locks approvals after too many wrong codes", () => {
    const a = state.issueCode("irc", "ann", "ann", opts);
    if (!a.ok) throw new Error(a.reason);
    for (let i = 0; i < PAIRING_MAX_FAILURES; i++)
      expect(state.approveCode("WRONG234", 2_000).ok).toBe(false);
    expect(state.approveCode(a.code, 2_000)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/locked/),
    });
    expect(state.isApproved("irc", "ann")).toBe(false);
  });
});
