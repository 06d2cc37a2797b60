import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commandEnv } from "./env.js";
import { runForeground } from "./local-backend.js";
import { pidAlive, waitUntil } from "./proc-state.js";

const dir = mkdtempSync(path.join(tmpdir(), "iris-backend-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pidsIn(output: string): number[] {
  return [...output.matchAll(/pid:(\d+)/g)].map((m) => Number(m[1]));
}

describe("runForeground", () => {
  it("returns output of both streams and the exit code", async () => {
    const r = await runForeground({
      command: "echo out; echo err >&2; exit 3",
      cwd: dir,
      env: commandEnv(),
      timeoutMs: 10_000,
    });
    expect(r.output).toContain("out\n");
    expect(r.output).toContain("err\n");
    expect(r.exitCode).toBe(3);
    expect(r.timedOut).toBe(false);
  });

  it("kills the whole group, children that ignore SIGTERM included, after the grace period", async () => {
    const r = await runForeground({
      command: "trap '' TERM; sleep 300 & echo pid:$!; sleep 300 & echo pid:$!; wait",
      cwd: dir,
      env: commandEnv(),
      timeoutMs: 500,
      graceMs: 200,
    });
    expect(r.timedOut).toBe(true);
    const pids = pidsIn(r.output);
    expect(pids).toHaveLength(2);
    await waitUntil(() => pids.every((p) => !pidAlive(p)));
  });

  it("reports the final working directory", async () => {
    const r = await runForeground({
      command: "cd /tmp && true",
      cwd: dir,
      env: commandEnv(),
      timeoutMs: 10_000,
    });
    expect(r.finalCwd).toBe("/tmp");
  });

  it("does not wait for a background child that keeps the pipes open", async () => {
    const r = await runForeground({
      command: "sleep 300 & echo pid:$!",
      cwd: dir,
      env: commandEnv(),
      timeoutMs: 60_000,
    });
    expect(r.exitCode).toBe(0);
    const [pid] = pidsIn(r.output);
    expect(pid).toBeDefined();
    process.kill(pid as number, "SIGKILL");
  });
});

describe("commandEnv", () => {
  it("drops secret-looking variables and keeps the rest", () => {
    const env = commandEnv({
      OPENAI_API_KEY: "k",
      GITHUB_TOKEN: "t",
      DB_PASSWORD: "p",
      PATH: "/bin",
      HOME: "/h",
    });
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env.GITHUB_TOKEN).toBeUndefined();
    expect(env.DB_PASSWORD).toBeUndefined();
    expect(env.PATH).toBe("/bin");
    expect(env.HOME).toBe("/h");
  });
});
