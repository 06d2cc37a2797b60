import { describe, expect, it } from "vitest";
import { ChatQueue } from "./chat-queue.js";

class Flood extends Error {
  constructor(readonly retryAfterMs: number) {
    super("429");
  }
}

/** A clock the queue sleeps on: sleeping moves it forward (no real waiting). */
function clock() {
  let t = 1000;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
  };
}

const opts = (c: ReturnType<typeof clock>) => ({
  intervalMs: () => 100,
  retryAfterMs: (e: unknown) => (e instanceof Flood ? e.retryAfterMs : undefined),
  ...c,
});

describe("ChatQueue", () => {
  it("runs one chat's calls in order, no closer than its interval", async () => {
    const c = clock();
    const q = new ChatQueue(opts(c));
    const at: number[] = [];
    await Promise.all([1, 2, 3].map(() => q.run("a", async () => void at.push(c.now()))));
    expect(at).toEqual([1000, 1100, 1200]);
  });

  it("holds the whole chat for a refusal's retry-after, and rethrows it", async () => {
    const c = clock();
    const q = new ChatQueue(opts(c));
    const first = q.run("a", async () => {
      throw new Flood(5000);
    });
    await expect(first).rejects.toThrow("429");
    let at = 0;
    await q.run("a", async () => {
      at = c.now();
    });
    expect(at).toBeGreaterThanOrEqual(6000);
    // Another chat is not held: it runs at once.
    const before = c.now();
    let other = -1;
    await q.run("b", async () => {
      other = c.now();
    });
    expect(other).toBe(before);
  });

  it("coalesces waiting 'latest' calls: only the newest runs", async () => {
    const c = clock();
    const q = new ChatQueue(opts(c));
    const shown: string[] = [];
    let release!: () => void;
    const busy = q.run("a", () => new Promise<void>((r) => (release = r)));
    const done = ["d1", "d2", "d3"].map((t) => q.latest("a", "draft", async () => void shown.push(t)));
    await new Promise((r) => setImmediate(r)); // the first call is running now
    release();
    await Promise.all([busy, ...done]);
    expect(shown).toEqual(["d3"]);
  });
});
