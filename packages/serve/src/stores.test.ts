// The bounded, expiring stores of `iris serve` (state.db in a temp folder), on a hand-driven clock.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type SqliteStore } from "@iris/host";
import type { Message } from "@iris/llm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { IdempotencyCache, type RecordedAnswer } from "./idempotency.js";
import { KeyLimits } from "./limits.js";
import { ResponseStore } from "./response-store.js";
import { openServeState, type ServeState } from "./state/index.js";

const history: Message[] = [{ role: "user", content: "hi" }];

let dir: string;
let store: SqliteStore;
let state: ServeState;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "iris-serve-stores-"));
  store = openStore(join(dir, "state.db"));
  state = await openServeState(store);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("ResponseStore", () => {
  it("expires entries after the TTL, keeps at most `max`, and hides another owner's", async () => {
    let now = 0;
    const store = new ResponseStore(state, 2, 1000, () => now);
    await store.put("alice", "r1", history);
    await store.put("alice", "r2", history);
    expect(await store.get("bob", "r1")).toBeUndefined();
    expect((await store.get("alice", "r1"))?.history).toEqual(history);
    await store.put("alice", "r3", history);
    expect(await store.size()).toBe(2);
    expect(await store.get("alice", "r1")).toBeUndefined(); // the oldest went first
    now = 1000;
    expect(await store.get("alice", "r3")).toBeUndefined(); // expired
  });
});

/** What a request with this key finds: a recorded answer, or none (its claim given up again). */
async function lookup(cache: IdempotencyCache, scope: string) {
  const claim = await cache.begin(scope);
  if ("answer" in claim) return claim.answer;
  await claim.settle(undefined);
  return undefined;
}

/** Runs a request under `scope` that answers `answer`. */
async function answerWith(cache: IdempotencyCache, scope: string, answer: RecordedAnswer | undefined) {
  const claim = await cache.begin(scope);
  if ("answer" in claim) throw new Error("expected to run");
  await claim.settle(answer);
}

describe("IdempotencyCache", () => {
  it("replays within the TTL, forgets failures, and scopes by API key and endpoint", async () => {
    let now = 0;
    const cache = new IdempotencyCache(state, 1000, () => now);
    const a = IdempotencyCache.scope("alice", "/v1/chat/completions", "k");
    expect(a).not.toBe(IdempotencyCache.scope("bob", "/v1/chat/completions", "k"));
    expect(a).not.toBe(IdempotencyCache.scope("alice", "/v1/responses", "k"));
    const first = await cache.begin(a);
    const waiting = cache.begin(a); // a second request while the first runs waits for it
    if ("answer" in first) throw new Error("expected to run");
    await first.settle({ status: 200, headers: {}, body: "one" });
    expect(await waiting).toEqual({ answer: expect.objectContaining({ body: "one" }) });
    now = 999;
    expect((await lookup(cache, a))?.body).toBe("one");
    now = 1000;
    expect(await lookup(cache, a)).toBeUndefined();
    await answerWith(cache, a, undefined);
    expect(await lookup(cache, a)).toBeUndefined();
    // A recorded answer outlives the process: a new cache on the same state.db replays it.
    now = 2000;
    await answerWith(cache, a, { status: 200, headers: {}, body: "two" });
    const restarted = new IdempotencyCache(state, 1000, () => now);
    expect((await lookup(restarted, a))?.body).toBe("two");
    expect(
      await lookup(restarted, IdempotencyCache.scope("bob", "/v1/chat/completions", "k")),
    ).toBeUndefined();
  });
});

describe("IdempotencyCache and rate limits", () => {
  it("keeps a 4xx answer but not a 429: the retry after Retry-After runs", async () => {
    const cache = new IdempotencyCache(state, 1000, () => 0);
    const limited = IdempotencyCache.scope("alice", "/v1/chat/completions", "k429");
    await answerWith(cache, limited, { status: 429, headers: { "retry-after": "1" }, body: "slow down" });
    expect(await lookup(cache, limited)).toBeUndefined();
    const invalid = IdempotencyCache.scope("alice", "/v1/chat/completions", "k400");
    await answerWith(cache, invalid, { status: 400, headers: {}, body: "bad" });
    expect((await lookup(cache, invalid))?.status).toBe(400);
  });
});

describe("KeyLimits", () => {
  it("counts requests per minute and requests at once, per key", async () => {
    let now = 0;
    const limits = new KeyLimits(1, 2, () => now);
    const release = await limits.acquire("alice");
    await expect(limits.acquire("alice")).rejects.toThrow(/concurrency/);
    await expect(limits.acquire("bob")).resolves.toBeTypeOf("function");
    release();
    release(); // twice is harmless
    now = 60_001;
    (await limits.acquire("alice"))();
    await limits.acquire("alice");
    await expect(limits.acquire("alice")).rejects.toThrow(/per minute/);
  });

  it("keeps the per-minute count right over many minutes of steady requests", async () => {
    let now = 0;
    const limits = new KeyLimits(10, 100, () => now);
    // 100 a minute, for 30 minutes: always at the limit, never over it.
    for (let i = 0; i < 3000; i++) {
      now = i * 600;
      (await limits.acquire("k"))();
    }
    await expect(limits.acquire("k")).rejects.toThrow(/100 requests per minute/);
    now += 600; // the oldest of the minute has left the window
    await expect(limits.acquire("k")).resolves.toBeTypeOf("function");
  });

  it("queues requests over the running limit, hands a freed slot to the first waiter, and 429s a full queue", async () => {
    const limits = new KeyLimits(1, 1000, Date.now, { size: 2, timeoutMs: 60_000 });
    const first = await limits.acquire("k");
    const order: string[] = [];
    const granted = (name: string) => (release: () => void) => {
      order.push(name);
      return release;
    };
    const second = limits.acquire("k").then(granted("second"));
    const third = limits.acquire("k").then(granted("third"));
    await vi.waitFor(() => expect(limits.queued("k")).toBe(2));
    await expect(limits.acquire("k")).rejects.toThrow(
      /concurrency limit: 1 requests at once for this key \(and 2 waiting/,
    );
    first();
    (await second)();
    (await third)();
    expect(order).toEqual(["second", "third"]);
    expect(limits.queued("k")).toBe(0);
  });

  it("ends a wait with a 429 at the timeout and with the client's abort", async () => {
    const limits = new KeyLimits(1, 1000, Date.now, { size: 5, timeoutMs: 0 });
    const held = await limits.acquire("k");
    await expect(limits.acquire("k")).rejects.toMatchObject({ status: 429 });
    const gone = new AbortController();
    const slow = new KeyLimits(1, 1000, Date.now, { size: 5, timeoutMs: 60_000 });
    const h2 = await slow.acquire("k");
    const waiting = slow.acquire("k", gone.signal);
    gone.abort();
    await expect(waiting).rejects.toMatchObject({ status: 499 });
    expect(slow.queued("k")).toBe(0);
    held();
    h2();
  });
});
