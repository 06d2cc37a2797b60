// `iris serve`'s durable state (migration 0017): conversations and idempotency answers hold across
// a reopen (a restart), expire, stay within their bound, and are kept apart per owner.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message } from "@iris/llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ServeState } from "./serve-state.js";
import { openSqliteEngine as openStore, type SqliteEngine as Store } from "./store.js";

let dir: string;
let store: Store;
let state: ServeState;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-serve-state-"));
  store = openStore(join(dir, "state.db"));
  state = new ServeState(store.db);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const hi: Message[] = [{ role: "user", content: "hi" }];

describe("ServeState responses", () => {
  it("keep a conversation across a reopen, for its owner only, until it expires", () => {
    state.putResponse("alice", "resp_1", hi, { expiresAt: 2000, max: 10, now: 0 });
    store.close();
    store = openStore(join(dir, "state.db"));
    state = new ServeState(store.db);
    expect(state.response("alice", "resp_1", 1999)).toEqual(hi);
    expect(state.response("bob", "resp_1", 0)).toBeUndefined();
    expect(state.response("alice", "resp_1", 2000)).toBeUndefined();
  });

  it("keep at most `max`, dropping the oldest written, and sweep expired rows on a write", () => {
    state.putResponse("a", "r1", hi, { expiresAt: 100, max: 2, now: 0 });
    state.putResponse("a", "r2", hi, { expiresAt: 10_000, max: 2, now: 0 });
    state.putResponse("a", "r1", hi, { expiresAt: 10_000, max: 2, now: 0 }); // rewritten: newest now
    state.putResponse("a", "r3", hi, { expiresAt: 10_000, max: 2, now: 0 });
    expect(state.responseCount()).toBe(2);
    expect(state.response("a", "r2", 0)).toBeUndefined();
    expect(state.response("a", "r1", 0)).toEqual(hi);
    state.putResponse("a", "r4", hi, { expiresAt: 500, max: 10, now: 0 });
    state.putResponse("a", "r5", hi, { expiresAt: 20_000, max: 10, now: 10_000 });
    expect(state.responseCount()).toBe(1);
  });

  it("keep a record beside the conversation, read old bare entries, and delete for the owner only", () => {
    state.putResponse("a", ["resp_1", "conv:x"], hi, { expiresAt: 10_000, max: 10, now: 0 }, { n: 1 });
    expect(state.responseEntry("a", "resp_1", 0)).toEqual({ history: hi, record: { n: 1 } });
    expect(state.response("a", "conv:x", 0)).toEqual(hi);
    state.putResponse("a", "resp_2", hi, { expiresAt: 10_000, max: 10, now: 0 });
    expect(state.responseEntry("a", "resp_2", 0)).toEqual({ history: hi });
    expect(state.deleteResponse("b", "resp_1", 0)).toBe(false);
    expect(state.deleteResponse("a", "resp_1", 0)).toBe(true);
    expect(state.response("a", "resp_1", 0)).toBeUndefined();
    expect(state.response("a", "conv:x", 0)).toEqual(hi);
    expect(state.deleteResponse("a", "resp_1", 0)).toBe(false);
  });
});

describe("ServeState idempotency answers", () => {
  it("keep an answer across a reopen until it expires, bounded", () => {
    const answer = { status: 200, headers: { "content-type": "application/json" }, body: '{"ok":1}' };
    state.putAnswer("s1", answer, { expiresAt: 1000, max: 2, now: 0 });
    store.close();
    store = openStore(join(dir, "state.db"));
    state = new ServeState(store.db);
    expect(state.answer("s1", 999)).toEqual(answer);
    expect(state.answer("s1", 1000)).toBeUndefined();
    state.putAnswer("s2", answer, { expiresAt: 5000, max: 2, now: 0 });
    state.putAnswer("s3", answer, { expiresAt: 5000, max: 2, now: 0 });
    expect(state.answerCount()).toBe(2);
    expect(state.answer("s1", 0)).toBeUndefined();
  });
});
