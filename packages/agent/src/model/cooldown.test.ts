// Route cooldowns with a store behind them (SPEC U4): a healthy call costs no write —
// only a route with a cooldown (this process's, or one another process stored) is cleared.
import { describe, expect, it } from "vitest";
import { CooldownBook, type RouteHealth, STORED_READ_FRESH_MS } from "./cooldown.js";

function health(): RouteHealth & { rows: Map<string, number>; writes: string[]; reads: number } {
  const rows = new Map<string, number>();
  const writes: string[] = [];
  return {
    rows,
    writes,
    reads: 0,
    async get(key) {
      this.reads++;
      return rows.has(key) ? { untilMs: rows.get(key) as number } : undefined;
    },
    set: async (key, until) => {
      writes.push(`set ${key}`);
      rows.set(key, until);
    },
    clear: async (key) => {
      writes.push(`clear ${key}`);
      rows.delete(key);
    },
  };
}

describe("CooldownBook over a store", () => {
  it("writes nothing when a route without a cooldown succeeds", async () => {
    const h = health();
    const book = new CooldownBook(60_000, () => 1_000, h);
    await book.refresh(["custom/m"]);
    book.clear("custom/m");
    book.clear("custom/m");
    await book.settled();
    expect(h.writes).toEqual([]);
  });

  it("clears its own cooldown and one another process stored, in the order they were made", async () => {
    const h = health();
    const book = new CooldownBook(60_000, () => 1_000, h);
    book.mark("a/one", "402");
    book.clear("a/one");
    h.rows.set("b/two", 30_000); // marked by another process
    expect(book.isCooling("b/two")).toBe(false); // not read yet
    await book.refresh(["a/one", "b/two"]);
    expect(book.remainingMs("b/two")).toBe(29_000);
    book.clear("b/two");
    await book.settled();
    expect(h.writes).toEqual(["set a/one", "clear a/one", "clear b/two"]);
    expect(h.rows.size).toBe(0);
  });

  it("reads a healthy route from the store at most once a while; another process's cooldown shows after it", async () => {
    const h = health();
    let now = 1_000;
    const book = new CooldownBook(60_000, () => now, h);
    for (let i = 0; i < 5; i++) {
      await book.refresh(["a/one"]);
      expect(book.isCooling("a/one")).toBe(false);
      book.clear("a/one");
    }
    expect(h.reads).toBe(1);
    h.rows.set("a/one", 30_000); // marked by another process
    now += STORED_READ_FRESH_MS - 1;
    await book.refresh(["a/one"]);
    expect(book.isCooling("a/one")).toBe(false);
    now += 1;
    await book.refresh(["a/one"]);
    expect(book.isCooling("a/one")).toBe(true);
    expect(h.reads).toBe(2);
    // Its own mark is seen at once, and so is a clear of it afterwards.
    book.mark("b/two");
    expect(book.isCooling("b/two")).toBe(true);
    book.clear("b/two");
    expect(book.isCooling("b/two")).toBe(false);
  });

  it("a store that refuses (busy, read-only) never fails the call", async () => {
    const locked = async () => {
      throw new Error("database is locked");
    };
    const book = new CooldownBook(60_000, () => 1_000, { get: locked, set: locked, clear: locked });
    await book.refresh(["a/one"]);
    book.mark("a/one");
    expect(book.isCooling("a/one")).toBe(true);
    book.clear("a/one");
    expect(book.isCooling("a/one")).toBe(false);
    await book.settled();
  });
});
