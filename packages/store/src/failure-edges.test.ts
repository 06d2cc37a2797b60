// Migration 0005: active time, route cooldowns and session leases, seen from two connections
// to one file (as two processes would).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteEngine as openStore, type SqliteEngine as Store } from "./store.js";

let dir: string;
let path: string;
let a: Store;
let b: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-store-"));
  path = join(dir, "state.db");
  a = openStore(path);
  b = openStore(path);
});
afterEach(() => {
  a.close();
  b.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("session active time", () => {
  it("sums turn durations per session", () => {
    const s = a.createSession({ source: "cli" });
    expect(a.activeTime.get(s.id)).toEqual({ activeMs: 0, turns: 0 });
    a.activeTime.addTurn(s.id, 1500);
    b.activeTime.addTurn(s.id, 2500);
    expect(a.activeTime.get(s.id)).toEqual({ activeMs: 4000, turns: 2 });
  });
});

describe("route cooldowns", () => {
  it("a cooldown set through one connection is seen by the other until it expires", () => {
    a.routeCooldowns.set("openai/gpt@https://x", 10_000, "server error", 1_000);
    expect(b.routeCooldowns.get("openai/gpt@https://x")?.untilMs).toBe(10_000);
    expect(b.routeCooldowns.listActive(5_000).map((r) => r.reason)).toEqual(["server error"]);
    expect(b.routeCooldowns.listActive(10_000)).toEqual([]);
    expect(a.routeCooldowns.get("openai/gpt@https://x")).toBeUndefined();
  });
  it("clear removes it", () => {
    a.routeCooldowns.set("k", 10_000, undefined, 0);
    b.routeCooldowns.clear("k");
    expect(a.routeCooldowns.get("k")).toBeUndefined();
  });
});

describe("session leases", () => {
  const me = { pid: 100, host: "h1" };
  const other = { pid: 200, host: "h1" };
  const alive = () => true;

  it("refuses a second holder while the first is alive and the lease is fresh", () => {
    const s = a.createSession({ source: "cli" });
    expect(a.leases.acquire({ sessionId: s.id, holder: me, ttlMs: 1000, now: 0, isAlive: alive }).ok).toBe(
      true,
    );
    const second = b.leases.acquire({ sessionId: s.id, holder: other, ttlMs: 1000, now: 10, isAlive: alive });
    expect(second).toMatchObject({ ok: false, heldBy: { pid: 100, host: "h1" } });
    a.leases.release(s.id, me);
    expect(
      b.leases.acquire({ sessionId: s.id, holder: other, ttlMs: 1000, now: 20, isAlive: alive }).ok,
    ).toBe(true);
  });

  it("takes over the lease of a dead holder at once, and an expired one from any host", () => {
    const s = a.createSession({ source: "cli" });
    a.leases.acquire({ sessionId: s.id, holder: me, ttlMs: 1000, now: 0, isAlive: alive });
    const dead = b.leases.acquire({
      sessionId: s.id,
      holder: other,
      ttlMs: 1000,
      now: 10,
      isAlive: () => false,
    });
    expect(dead.ok).toBe(true);
    const remote = { pid: 300, host: "h2" };
    expect(
      a.leases.acquire({ sessionId: s.id, holder: remote, ttlMs: 1000, now: 20, isAlive: alive }).ok,
    ).toBe(false);
    expect(
      a.leases.acquire({ sessionId: s.id, holder: remote, ttlMs: 1000, now: 2000, isAlive: alive }).ok,
    ).toBe(true);
    // The former holder's renewal now fails: it knows it lost the lease.
    expect(b.leases.renew(s.id, other, 5000)).toBe(false);
    expect(a.leases.renew(s.id, remote, 5000)).toBe(true);
  });
});
