// Route cooldowns with a store behind them (SPEC U4, issue 14): a healthy call costs no write —
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
    get(key) {
      this.reads++;
      return rows.has(key) ? { untilMs: rows.get(key) as number } : undefined;
    },
    set: (key, until) => {
      writes.push(`set ${key}`);
      rows.set(key, until);
    },
    clear: (key) => {
      writes.push(`clear ${key}`);
      rows.delete(key);
    },
  };
}

describe("CooldownBook over a store", () => {
  it("writes nothing when a route without a cooldown succeeds", () => {
    const h = health();
    const book = new CooldownBook(60_000, () => 1_000, h);
    book.clear("custom/m");
    book.clear("custom/m");
    expect(h.writes).toEqual([]);
  });

  it("clears its own cooldown and one another process stored", () => {
    const h = health();
    const book = new CooldownBook(60_000, () => 1_000, h);
    book.mark("a/one", "402");
    book.clear("a/one");
    h.rows.set("b/two", 30_000); // marked by another process
    book.clear("b/two");
    expect(h.writes).toEqual(["set a/one", "clear a/one", "clear b/two"]);
    expect(h.rows.size).toBe(0);
  });

  it("reads a healthy route from the store at most once a while; another process's cooldown shows after it", () => {
    const h = health();
    let now = 1_000;
    const book = new CooldownBook(60_000, () => now, h);
    for (let i = 0; i < 5; i++) {
      expect(book.isCooling("a/one")).toBe(false);
      book.clear("a/one");
    }
    expect(h.reads).toBe(1);
    h.rows.set("a/one", 30_000); // marked by another process
    now += STORED_READ_FRESH_MS - 1;
    expect(book.isCooling("a/one")).toBe(false);
    now += 1;
    expect(book.isCooling("a/one")).toBe(true);
    expect(h.reads).toBe(2);
    // Its own mark is seen at once, and so is a clear of it afterwards.
    book.mark("b/two");
    expect(book.isCooling("b/two")).toBe(true);
    book.clear("b/two");
    expect(book.isCooling("b/two")).toBe(false);
  });

  it("a store that refuses (busy, read-only) never fails the call", () => {
    const book = new CooldownBook(60_000, () => 1_000, {
      get: () => {
        throw new Error("database is locked");
      },
      set: () => {
        throw new Error("database is locked");
      },
      clear: () => {
        throw new Error("database is locked");
      },
    });
    book.mark("a/one");
    expect(book.isCooling("a/one")).toBe(true);
    book.clear("a/one");
    expect(book.isCooling("a/one")).toBe(false);
  });
});
