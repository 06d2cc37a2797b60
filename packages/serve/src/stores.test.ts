// The bounded, expiring stores of `iris serve` (state.db in a temp folder), on a hand-driven clock.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message } from "@iris/llm";
import { openStore, ServeState, type Store } from "@iris/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IdempotencyCache } from "./idempotency.js";
import { KeyLimits } from "./limits.js";
import { ResponseStore } from "./response-store.js";

const history: Message[] = [{ role: "user", content: "hi" }];

let dir: string;
let store: Store;
let state: ServeState;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-serve-stores-"));
  store = openStore(join(dir, "state.db"));
  state = new ServeState(store.db);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("ResponseStore", () => {
  it("expires entries after the TTL, keeps at most `max`, and hides another owner's", () => {
    let now = 0;
    const store = new ResponseStore(state, 2, 1000, () => now);
    store.put("alice", "r1", history);
    store.put("alice", "r2", history);
    expect(store.get("bob", "r1")).toBeUndefined();
    expect(store.get("alice", "r1")?.history).toEqual(history);
    store.put("alice", "r3", history);
    expect(store.size).toBe(2);
    expect(store.get("alice", "r1")).toBeUndefined(); // the oldest went first
    now = 1000;
    expect(store.get("alice", "r3")).toBeUndefined(); // expired
  });
});

describe("IdempotencyCache", () => {
  it("replays within the TTL, forgets failures, and scopes by API key and endpoint", async () => {
    let now = 0;
    const cache = new IdempotencyCache(state, 1000, () => now);
    const a = IdempotencyCache.scope("alice", "/v1/chat/completions", "k");
    expect(a).not.toBe(IdempotencyCache.scope("bob", "/v1/chat/completions", "k"));
    expect(a).not.toBe(IdempotencyCache.scope("alice", "/v1/responses", "k"));
    const settle = cache.begin(a);
    const waiting = cache.lookup(a); // a second request while the first runs waits for it
    settle({ status: 200, headers: {}, body: "one" });
    expect((await waiting)?.body).toBe("one");
    now = 999;
    expect((await cache.lookup(a))?.body).toBe("one");
    now = 1000;
    expect(await cache.lookup(a)).toBeUndefined();
    const failed = cache.begin(a);
    failed(undefined);
    expect(await cache.lookup(a)).toBeUndefined();
    // A recorded answer outlives the process: a new cache on the same state.db replays it.
    now = 2000;
    cache.begin(a)({ status: 200, headers: {}, body: "two" });
    const restarted = new IdempotencyCache(state, 1000, () => now);
    expect((await restarted.lookup(a))?.body).toBe("two");
    expect(
      await restarted.lookup(IdempotencyCache.scope("bob", "/v1/chat/completions", "k")),
    ).toBeUndefined();
  });
});

describe("IdempotencyCache and rate limits", () => {
  it("keeps a 4xx answer but not a 429: the retry after Retry-After runs", async () => {
    const cache = new IdempotencyCache(state, 1000, () => 0);
    const limited = IdempotencyCache.scope("alice", "/v1/chat/completions", "k429");
    cache.begin(limited)({ status: 429, headers: { "retry-after": "1" }, body: "slow down" });
    expect(await cache.lookup(limited)).toBeUndefined();
    const invalid = IdempotencyCache.scope("alice", "/v1/chat/completions", "k400");
    cache.begin(invalid)({ status: 400, headers: {}, body: "bad" });
    expect((await cache.lookup(invalid))?.status).toBe(400);
  });
});

describe("KeyLimits", () => {
  it("counts requests per minute and requests at once, per key", () => {
    let now = 0;
    const limits = new KeyLimits(1, 2, () => now);
    const release = limits.acquire("alice");
    expect(() => limits.acquire("alice")).toThrow(/concurrency/);
    expect(() => limits.acquire("bob")).not.toThrow();
    release();
    release(); // twice is harmless
    limits.acquire("alice")();
    expect(() => limits.acquire("alice")).toThrow(/per minute/);
    now = 60_001;
    expect(() => limits.acquire("alice")).not.toThrow();
  });
});
