import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { openSqliteEngine as openStore, type SqliteEngine as Store } from "./store.js";

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-store-"));
  store = openStore(join(dir, "state.db"));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const zero = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };

it("deletes a session with its nodes, usage and search hits, and leaves the others alone", () => {
  const keep = store.createSession({ source: "cli" });
  const gone = store.createSession({ source: "cli" });
  store.appendNode(keep.id, { kind: "message", message: { role: "user", content: "keep the walrus" } });
  store.appendNode(gone.id, { kind: "message", message: { role: "user", content: "drop the walrus" } });
  store.appendNode(gone.id, { kind: "message", message: { role: "user", content: "and the narwhal" } });
  store.recordUsage({
    sessionId: gone.id,
    provider: "p",
    model: "m",
    usage: zero,
    costUsd: 0,
    latencyMs: 1,
    status: "ok",
  });
  expect(store.search("walrus").length).toBe(2);
  store.deleteSession(gone.id);
  expect(store.findSession(gone.id)).toBeUndefined();
  expect(store.usageForSession(gone.id)).toEqual([]);
  expect(store.search("walrus").map((h) => h.sessionId)).toEqual([keep.id]);
  expect(store.search("narwhal")).toEqual([]);
  expect(store.activePath(keep.id).length).toBe(1);
});

it("deletes a session that has active time and a lease (migration 0005's rows go with it)", () => {
  const gone = store.createSession({ source: "cli" });
  store.appendNode(gone.id, { kind: "message", message: { role: "user", content: "worked on" } });
  store.activeTime.addTurn(gone.id, 1_500);
  store.leases.acquire({
    sessionId: gone.id,
    holder: { pid: process.pid, host: "here" },
    ttlMs: 60_000,
    now: Date.now(),
    isAlive: () => true,
  });
  store.deleteSession(gone.id);
  expect(store.findSession(gone.id)).toBeUndefined();
  expect(store.leases.list()).toEqual([]);
});

it("refuses to delete a session another one continues, and names it", () => {
  const parent = store.createSession({ source: "cli" });
  const child = store.createSession({ source: "cli", parentSessionId: parent.id });
  expect(() => store.deleteSession(parent.id)).toThrow(new RegExp(`continued by ${child.id}`));
  expect(store.findSession(parent.id)).toBeDefined();
  store.deleteSession(child.id);
  store.deleteSession(parent.id);
  expect(store.listSessions()).toEqual([]);
  expect(() => store.deleteSession(parent.id)).toThrow(/no session/);
});
