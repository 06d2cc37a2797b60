import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AskBoard } from "./dashboard-asks.js";
import { DashboardReads } from "./dashboard-reads.js";
import { PlatformHealth } from "./platform-health.js";
import { openSqliteEngine as openStore, type SqliteEngine as Store } from "./store.js";

let dir: string;
let store: Store;
let reads: DashboardReads;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-dashboard-reads-"));
  store = openStore(join(dir, "state.db"));
  reads = new DashboardReads(store.db);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const usage = (input: number, output: number) => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: 10,
  cacheWriteTokens: 5,
  reasoningTokens: 0,
});
const today = () => Math.floor(Date.now() / 86_400_000);

function call(sessionId: string, provider: string, model: string, input: number, cost: number): void {
  store.recordUsage({
    sessionId,
    provider,
    model,
    usage: usage(input, 20),
    costUsd: cost,
    latencyMs: 5,
    status: "ok",
  });
}

describe("usage per day (usage_daily kept by triggers)", () => {
  it("sums calls by model, provider and platform as the usage rows do; a deleted session leaves nothing", () => {
    const a = store.createSession({ source: "cli" });
    const b = store.createSession({ source: "gateway:irc" });
    call(a.id, "openai", "gpt-4o", 100, 0.5);
    call(a.id, "openai", "gpt-4o", 200, 0.25);
    call(b.id, "anthropic", "claude", 50, 1);
    const d = today();
    const byModel = reads.usageByDay(d, d, "model");
    expect(byModel.map((r) => [r.key, r.calls, r.inputTokens, r.costUsd])).toEqual([
      ["anthropic/claude", 1, 50, 1],
      ["openai/gpt-4o", 2, 300, 0.75],
    ]);
    expect(reads.usageByDay(d, d, "platform").map((r) => r.key)).toEqual(["cli", "gateway:irc"]);
    const bySession = reads.usageByDay(d, d, "session");
    expect(bySession.find((r) => r.key === a.id)?.inputTokens).toBe(300);
    const totals = reads.usageOnDays(d, d);
    expect(totals).toMatchObject({
      calls: 3,
      inputTokens: 350,
      outputTokens: 60,
      cacheReadTokens: 30,
      cacheWriteTokens: 15,
    });
    expect(totals.costUsd).toBeCloseTo(1.75);
    // The same figures as the sessions' own totals (what `iris usage` prints).
    expect(store.getSession(a.id).inputTokens + store.getSession(b.id).inputTokens).toBe(totals.inputTokens);

    store.deleteSession(b.id);
    expect(reads.usageByDay(d, d, "model").map((r) => r.key)).toEqual(["openai/gpt-4o"]);
    expect(reads.usageOnDays(d, d).calls).toBe(2);
    expect(reads.usageByDay(d - 30, d - 1, "model")).toEqual([]);
  });
});

describe("session pages", () => {
  it("pages newest first by a keyset cursor, with the last activity of each", () => {
    const ids = Array.from(
      { length: 7 },
      (_, i) => store.createSession({ source: "cli", title: `s${i}` }).id,
    );
    store.appendNode(ids[6]!, { kind: "message", message: { role: "user", content: "hi" } });
    const seen: string[] = [];
    let cursor: { startedAt: number; rowid: number } | undefined;
    for (;;) {
      const page = reads.sessionsPage(3, cursor);
      seen.push(...page.map((r) => r.id));
      if (page.length < 3) break;
      const last = page.at(-1)!;
      cursor = { startedAt: last.startedAt, rowid: last.rowid };
    }
    expect(seen).toEqual([...ids].reverse());
    expect(reads.sessionCount()).toBe(7);
    expect(reads.sessionIdsWithPrefix(ids[0]!.slice(0, 36))).toEqual([ids[0]]);
  });
});

describe("the ask board", () => {
  it("takes the first answer only, and withdraws what a gone process left", () => {
    const s = store.createSession({ source: "cli" });
    const board = new AskBoard(store.db);
    board.publish({
      id: "r1",
      sessionId: s.id,
      kind: "approval",
      source: "cli",
      question: { command: "rm -rf x" },
    });
    expect(board.waiting().map((a) => a.id)).toEqual(["r1"]);
    expect(board.answer("r1", "once", "dashboard")).toBe(true);
    expect(board.answer("r1", "deny", "dashboard")).toBe(false);
    expect(board.get("r1")).toMatchObject({
      state: "answered",
      answer: "once",
      question: { command: "rm -rf x" },
    });
    board.publish({ id: "r2", sessionId: s.id, kind: "clarify", source: "cli", question: { question: "?" } });
    expect(board.withdrawOrphans(() => false)).toBe(1);
    expect(board.waiting()).toEqual([]);
    expect(board.forSession(s.id).map((a) => a.state)).toEqual(["answered", "withdrawn"]);
    board.touchPresence(1234);
    expect(board.presenceSeenAt()).toBe(1234);
  });
});

describe("platform health", () => {
  it("keeps the last error when a later state has none", () => {
    const h = new PlatformHealth(store.db);
    h.set("irc", "degraded", "connection refused", 1);
    h.set("irc", "stopped", undefined, 2);
    expect(h.list()).toEqual([
      { platform: "irc", state: "stopped", pid: process.pid, lastError: "connection refused", updatedAt: 2 },
    ]);
  });
});
