import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "./driver.js";
import { SHORT_ID_PREFIX_SQL } from "./sessions.js";
import { openSqliteEngine as openStore, type SqliteEngine as Store } from "./store.js";

let dir: string;
let path: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-store-"));
  path = join(dir, "state.db");
  store = openStore(path);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const usage = (input: number, output: number) => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: Math.floor(input / 2),
  cacheWriteTokens: 7,
  reasoningTokens: 3,
});

describe("sessions", () => {
  it("stores the metadata and the frozen system prompt across reopen", () => {
    const parent = store.createSession({ source: "cli", title: "first" });
    const s = store.createSession({
      title: "세션 제목",
      source: "gateway:telegram",
      cwd: "/home/u/project",
      parentSessionId: parent.id,
      systemPrompt: "You are Iris.",
      model: "claude-x",
      provider: "anthropic",
    });
    store.close();
    store = openStore(path);
    const back = store.getSession(s.id);
    expect(back).toMatchObject({
      title: "세션 제목",
      source: "gateway:telegram",
      cwd: "/home/u/project",
      parentSessionId: parent.id,
      systemPrompt: "You are Iris.",
      model: "claude-x",
      provider: "anthropic",
      endedAt: null,
      endReason: null,
      activeLeafId: null,
      apiCalls: 0,
      costUsd: 0,
    });
    expect(back.startedAt).toBeGreaterThan(0);
    // A model switch keeps the stored prompt (SPEC U5).
    store.setSessionModel(s.id, "gpt-x", "openai");
    expect(store.getSession(s.id)).toMatchObject({
      model: "gpt-x",
      provider: "openai",
      systemPrompt: "You are Iris.",
    });
    expect(() => store.setSystemPrompt(s.id, "")).toThrow(/system prompt must be a non-empty string/);
    store.setSystemPrompt(s.id, "rebuilt");
    expect(store.getSession(s.id).systemPrompt).toBe("rebuilt");
  });

  it("ends a session with a reason and lists sessions newest first, by source", () => {
    const a = store.createSession({ source: "cli" });
    const b = store.createSession({ source: "api" });
    const c = store.createSession({ source: "cli" });
    const ended = store.endSession(a.id, "user_exit");
    expect(ended.endReason).toBe("user_exit");
    expect(ended.endedAt).not.toBeNull();
    expect(store.listSessions({ limit: 10 }).map((s) => s.id)).toEqual([c.id, b.id, a.id]);
    expect(store.listSessions({ limit: 10, source: "cli" }).map((s) => s.id)).toEqual([c.id, a.id]);
    expect(store.listSessions({ limit: 1 })).toHaveLength(1);
    expect(() => store.endSession("nope", "x")).toThrow(/no session/);
    expect(() => store.createSession({ source: "" })).toThrow(/source/);
    expect(() => store.createSession({ source: "cli", parentSessionId: "nope" })).toThrow(/no session/);
  });
});

describe("usage", () => {
  it("records one row per API call and moves the session totals in the same transaction", () => {
    const s = store.createSession({ source: "cli" });
    const other = store.createSession({ source: "cli" });
    store.recordUsage({
      sessionId: s.id,
      taskId: "t1",
      provider: "anthropic",
      model: "claude-x",
      usage: usage(40_000, 500),
      costUsd: 0.125,
      latencyMs: 900,
      status: "ok",
    });
    store.recordUsage({
      sessionId: s.id,
      taskId: "t1",
      provider: "openai",
      model: "gpt-x",
      usage: usage(46_000, 0),
      costUsd: 0.25,
      latencyMs: 120,
      status: "error",
    });
    store.recordUsage({
      sessionId: other.id,
      provider: "openai",
      model: "gpt-x",
      usage: usage(1, 1),
      costUsd: 1,
      latencyMs: 1,
      status: "ok",
    });
    const rows = store.usageForSession(s.id);
    expect(rows.map((r) => [r.provider, r.inputTokens, r.status, r.taskId])).toEqual([
      ["anthropic", 40_000, "ok", "t1"],
      ["openai", 46_000, "error", "t1"],
    ]);
    expect(store.getSession(s.id)).toMatchObject({
      apiCalls: 2,
      inputTokens: 86_000,
      outputTokens: 500,
      cacheReadTokens: 43_000,
      cacheWriteTokens: 14,
      reasoningTokens: 6,
      costUsd: 0.375,
    });
  });

  it("refuses bad rows and leaves the totals unchanged", () => {
    const s = store.createSession({ source: "cli" });
    const bad = {
      sessionId: s.id,
      provider: "p",
      model: "m",
      usage: { ...usage(5, 5), outputTokens: -1 },
      costUsd: 0.5,
      latencyMs: 1,
      status: "ok",
    };
    expect(() => store.recordUsage(bad)).toThrow(/usage.outputTokens/);
    expect(() => store.recordUsage({ ...bad, usage: usage(1, 1), provider: "" })).toThrow(/provider/);
    expect(() => store.recordUsage({ ...bad, usage: usage(1, 1), sessionId: "nope" })).toThrow(/no session/);
    expect(store.getSession(s.id)).toMatchObject({ apiCalls: 0, inputTokens: 0, costUsd: 0 });
    expect(store.usageForSession(s.id)).toEqual([]);
  });
});

describe("the look-up by a short id's first characters", () => {
  it("reads a range of the short-id index, not every session", () => {
    for (let i = 0; i < 50; i++) store.createSession({ source: "cli" });
    const db = openDatabase(path, { readonly: true });
    const plan = db
      .prepare<{ detail: string }>(`EXPLAIN QUERY PLAN ${SHORT_ID_PREFIX_SQL}`)
      .all("9be1", "9be2", 6)
      .map((r) => r.detail);
    db.close();
    expect(plan.join("\n")).toMatch(
      /SEARCH sessions USING INDEX sessions_by_short_id_8 \(<expr>>\? AND <expr><\?\)/,
    );
    expect(plan.join("\n")).not.toMatch(/SCAN sessions|TEMP B-TREE/);
  });
});
