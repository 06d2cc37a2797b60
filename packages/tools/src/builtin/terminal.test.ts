import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTestContext } from "../fs/test-context.js";
import { pidAlive, waitUntil } from "../terminal/proc-state.js";
import terminal from "./terminal.js";

const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "iris-terminal-")));
mkdirSync(path.join(dir, "sub"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: Parameters<typeof terminal.execute>[0], ctx = makeTestContext({ cwd: dir })) {
  const r = await terminal.execute(args, ctx);
  return typeof r === "string" ? r : r.content;
}

describe("terminal", () => {
  it("runs in the working directory and reports the exit code", async () => {
    const out = await run({ command: "pwd; exit 7" });
    expect(out).toBe(`${dir}\n[exit code: 7]`);
  });

  it("keeps a cd for later calls of the same task only", async () => {
    const a = makeTestContext({ cwd: dir, taskId: "task-a" });
    const b = makeTestContext({ cwd: dir, taskId: "task-b" });
    expect(await run({ command: "cd sub" }, a)).toContain(`[working directory is now ${dir}/sub]`);
    expect(await run({ command: "pwd" }, a)).toContain(`${dir}/sub\n`);
    expect(await run({ command: "pwd" }, b)).toContain(`${dir}\n`);
    expect(await run({ command: "cd .. && echo moved" }, a)).toContain(`[working directory is now ${dir}]`);
    expect(await run({ command: "pwd" }, a)).toBe(`${dir}\n[exit code: 0]`);
  });

  it("falls back to the session folder when the task's folder was deleted", async () => {
    const ctx = makeTestContext({ cwd: dir, taskId: "task-gone" });
    await run({ command: "mkdir -p gone && cd gone" }, ctx);
    rmSync(path.join(dir, "gone"), { recursive: true });
    const out = await run({ command: "pwd" }, ctx);
    expect(out).toBe(
      `[the previous working directory ${dir}/gone no longer exists; running in ${dir}]\n${dir}\n[exit code: 0]`,
    );
  });

  it("kills a timed-out command together with its children", async () => {
    const out = await run({
      command: "bash -c 'sleep 300 & echo pid:$!; sleep 300 & echo pid:$!; wait' & echo pid:$!; wait",
      timeout: 0.5,
    });
    expect(out).toContain("[timed out after 0.5 s");
    const pids = [...out.matchAll(/pid:(\d+)/g)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(3);
    await waitUntil(() => pids.every((p) => !pidAlive(p)));
  });

  it("stops and kills the group when the signal aborts", async () => {
    const ac = new AbortController();
    const ctx = makeTestContext({ cwd: dir, signal: ac.signal });
    const pending = run({ command: "sleep 300 & echo pid:$!; wait" }, ctx);
    ac.abort();
    const out = await pending;
    expect(out).toContain("[interrupted;");
  });

  it("caps long output by bytes, keeping head and tail", async () => {
    const out = await run({ command: "seq 1 100000" });
    expect(out.startsWith("1\n2\n")).toBe(true);
    expect(out).toMatch(/100000\n\[exit code: 0\]$/);
    expect(out).toMatch(/bytes cut; output was 588895 bytes/);
    expect(Buffer.byteLength(out)).toBeLessThan(52_000);
  });

  it("does not pass secret variables to commands", async () => {
    process.env.IRIS_TEST_API_KEY = "should-not-leak";
    try {
      const out = await run({ command: 'test -z "$IRIS_TEST_API_KEY" && echo "[unset]"' });
      expect(out).toContain("[unset]");
    } finally {
      delete process.env.IRIS_TEST_API_KEY;
    }
  });

  it("names the command as its approval subject", () => {
    expect(terminal.approvalSubject?.({ command: "rm -rf build" })).toBe("rm -rf build");
  });

  it("starts a background process and returns its id at once", async () => {
    const out = await run({ command: "sleep 300", background: true });
    const m = /Started (proc_\d+) \(pid (\d+)\)/.exec(out);
    expect(m).not.toBeNull();
    process.kill(-Number(m?.[2]), "SIGKILL");
  });
});
