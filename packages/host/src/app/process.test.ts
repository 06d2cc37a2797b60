// The process scope: one logger configured from the profile, diagnostics in logs/iris.log with
// secrets redacted (never on stdout or in the chat), and a close() that closes every session.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getLogger } from "@iris/llm";
import { openStore, type SqliteStore } from "@iris/store";
import { startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadProfile } from "../config/index.js";
import { storeOf } from "../testing.js";
import { InMemoryState } from "./in-memory-state.js";
import { IrisProcess } from "./process.js";

let dir: TempDir;
beforeEach(() => {
  dir = tempDir("iris-process");
});
afterEach(() => dir.cleanup());

function profile(config = "") {
  writeFileSync(join(dir.path, "config.yaml"), config);
  writeFileSync(join(dir.path, ".env"), "OPENAI_API_KEY=sk-test-abcdefghijklmnop0123\n", { mode: 0o600 });
  const p = loadProfile({ env: { IRIS_HOME: dir.path } });
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return p;
}

describe("IrisProcess", () => {
  it("configures the logger once: level from config, lines in logs/iris.log, secrets redacted", async () => {
    const iris = await IrisProcess.open({
      profile: profile("logging:\n  level: info\n"),
      platform: "cli",
      env: {},
    });
    getLogger({ component: "shaping" }).warn("history repaired before sending", {
      detail: "key sk-test-abcdefghijklmnop0123 was in the text",
    });
    getLogger().debug("below the level");
    await iris.close();
    const lines = readFileSync(join(dir.path, "logs", "iris.log"), "utf8")
      .trim()
      .split("\n");
    const record = JSON.parse(lines.at(-1) ?? "{}");
    expect(record).toMatchObject({
      level: "warn",
      component: "shaping",
      msg: "history repaired before sending",
    });
    expect(lines.join("\n")).not.toContain("sk-test-abcdefghijklmnop0123");
    expect(lines.join("\n")).not.toContain("below the level");
  });

  it("IRIS_LOG_LEVEL wins over the config", async () => {
    const iris = await IrisProcess.open({
      profile: profile("logging:\n  level: error\n"),
      platform: "cli",
      env: { IRIS_LOG_LEVEL: "debug" },
    });
    getLogger().debug("now visible");
    await iris.close();
    expect(readFileSync(join(dir.path, "logs", "iris.log"), "utf8")).toContain("now visible");
  });

  it("close() closes every session and then the store, once", async () => {
    const iris = await IrisProcess.open({ profile: profile(), platform: "cli", env: {} });
    const route = { provider: "custom", model: "m", baseUrl: "http://127.0.0.1:9/v1" };
    const a = iris.openSession({ source: "test", cwd: dir.path, route });
    const b = iris.openSession({ source: "test", cwd: dir.path, route });
    await a.startSession();
    expect(iris.openSessions).toBe(2);
    await Promise.all([iris.close(), iris.close()]);
    expect(a.isClosed && b.isClosed).toBe(true);
    expect(iris.openSessions).toBe(0);
    expect((storeOf(iris) as SqliteStore).db.open).toBe(false);
    expect(() => iris.openSession({ source: "test", cwd: dir.path, route })).toThrow(/closing/);
  });

  it("processes on one in-memory state share it, keep nothing in state.db, and leave it open at close", async () => {
    const state = InMemoryState.open();
    const p = profile();
    const first = await IrisProcess.open({ profile: p, platform: "batch", env: {}, inMemory: state });
    const second = await IrisProcess.open({ profile: p, platform: "batch", env: {}, inMemory: state });
    const route = { provider: "custom", model: "m", baseUrl: "http://127.0.0.1:9/v1" };
    const row = await first.openSession({ source: "batch", cwd: dir.path, route }).startSession();
    expect(storeOf(second)).toBe(storeOf(first));
    await first.close();
    // The other process still reads what the first wrote: closing one left the state open.
    expect((await second.findSession(row.id)).ok).toBe(true);
    await second.close();
    const store = storeOf(second) as SqliteStore;
    expect(store.db.open).toBe(true);
    await state.close();
    expect(store.db.open).toBe(false);
    const disk = openStore(join(dir.path, "state.db"));
    expect(await disk.listSessions({ limit: 10 })).toEqual([]);
    await disk.close();
  });

  it("close() during a tool call lets the turn write its results first, then closes the store", async () => {
    const fake = await startFakeLlm();
    try {
      const iris = await IrisProcess.open({ profile: profile(), platform: "cli", env: {} });
      const s = iris.openSession({
        source: "test",
        cwd: dir.path,
        route: { provider: "custom", model: "m", baseUrl: fake.baseUrl, apiMode: "chat_completions" },
      });
      await s.startSession();
      fake.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: "sleep 30" } }] });
      let closed: Promise<void> | undefined;
      s.events.on("tool_exec_started", () => {
        closed = iris.close();
      });
      const result = await s.send("wait a while");
      await closed;
      expect(result.reason).toBe("user_cancelled");
      expect((storeOf(iris) as SqliteStore).db.open).toBe(false);
      const again = openStore(join(dir.path, "state.db"));
      // The interrupted call got its result before the store closed: the history stays whole.
      expect((await again.activePath(s.id)).map((n) => n.message?.role)).toEqual([
        "user",
        "assistant",
        "tool",
      ]);
      await again.close();
    } finally {
      await fake.close();
    }
  });

  it("names the problem when a session's route cannot be resolved", async () => {
    const iris = await IrisProcess.open({ profile: profile(), platform: "cli", env: {} });
    expect(() =>
      iris.openSession({ source: "test", cwd: dir.path, route: { provider: "nonesuch" } }),
    ).toThrow(/nonesuch/);
    await iris.close();
  });
});
