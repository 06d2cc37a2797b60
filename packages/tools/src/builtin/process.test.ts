import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ToolContext } from "../define.js";
import { makeTestContext } from "../fs/test-context.js";
import { pidAlive, waitUntil } from "../terminal/proc-state.js";
import type { LocalProcesses } from "../workspace/local-processes.js";
import processTool from "./process.js";
import terminal from "./terminal.js";

const dir = mkdtempSync(path.join(tmpdir(), "iris-process-"));
const ctx = makeTestContext({ cwd: dir });
const processManager = (ctx.workspace.processes as LocalProcesses).manager;
afterAll(async () => {
  for (const p of processManager.list()) await processManager.kill(p, 200);
  rmSync(dir, { recursive: true, force: true });
});

async function call(args: Parameters<typeof processTool.execute>[0], c: ToolContext = ctx) {
  const r = await processTool.execute(args, c);
  return typeof r === "string" ? r : r.content;
}

async function startBackground(command: string): Promise<{ id: string; pid: number }> {
  const r = await terminal.execute({ command, background: true }, ctx);
  const m = /Started (proc_\d+) \(pid (\d+)\)/.exec(typeof r === "string" ? r : r.content);
  if (!m) throw new Error(`not started: ${JSON.stringify(r)}`);
  return { id: m[1] as string, pid: Number(m[2]) };
}

function buffered(id: string): string {
  const p = processManager.get(id);
  return p ? processManager.buffered(p).text : "";
}

describe("process", () => {
  it("polls, writes to and kills a background process with its children", async () => {
    const { id, pid } = await startBackground(
      'sleep 300 & echo "child:$!"; while read -r line; do echo "got:$line"; done',
    );
    await waitUntil(() => buffered(id).includes("child:"));
    const childPid = Number(/child:(\d+)/.exec(buffered(id))?.[1]);

    expect(await call({ action: "list" })).toContain(`${id} running (pid ${pid}`);
    const first = await call({ action: "poll", id });
    expect(first).toContain(`${id} running`);
    expect(first).toContain(`child:${childPid}`);
    expect(await call({ action: "poll", id })).toContain("(no new output)");

    expect(await call({ action: "write", id, data: "hello\n" })).toContain("Wrote 6 bytes");
    await waitUntil(() => buffered(id).includes("got:hello"));
    const second = await call({ action: "poll", id });
    expect(second).toContain("got:hello");
    expect(second).not.toContain("child:");

    const killed = await call({ action: "kill", id });
    expect(killed).toMatch(new RegExp(`${id} killed by SIGTERM after \\d+ s \\(killed on request\\)`));
    await waitUntil(() => !pidAlive(pid) && !pidAlive(childPid));
    expect((await processTool.execute({ action: "write", id, data: "x" }, ctx)) as object).toMatchObject({
      isError: true,
    });
  });

  it("waits for exit and returns the exit code and the output", async () => {
    const { id } = await startBackground("echo one; echo two; exit 4");
    const out = await call({ action: "wait", id, timeout: 30 });
    expect(out).toMatch(new RegExp(`^${id} exited with code 4 after \\d+ s\\none\\ntwo$`));
  });

  it("reports exit even when a grandchild keeps its output pipe open", async () => {
    const { id } = await startBackground("sleep 300 & echo child:$!; exit 2");
    const out = await call({ action: "wait", id, timeout: 30 });
    expect(out).toContain(`${id} exited with code 2`);
    const childPid = Number(/child:(\d+)/.exec(out)?.[1]);
    expect(pidAlive(childPid)).toBe(true);
    const p = processManager.get(id);
    if (p) await processManager.kill(p);
    await waitUntil(() => !pidAlive(childPid));
  });

  it("says when a wait times out while the process still runs", async () => {
    const { id } = await startBackground("sleep 300");
    const out = await call({ action: "wait", id, timeout: 0.2 });
    expect(out).toContain("[still running after waiting 0.2 s]");
    await call({ action: "kill", id });
  });

  it("reads buffered output by line with offset and limit", async () => {
    const { id } = await startBackground("seq 1 50");
    await call({ action: "wait", id });
    const out = await call({ action: "read", id, offset: 10, limit: 5 });
    const lines = out.split("\n");
    expect(lines[1]).toBe("    10|10");
    expect(lines[5]).toBe("    14|14");
    expect(lines[6]).toBe("[36 more lines; next offset 15]");
  });

  it("rejects unknown ids and missing ids with a clear error", async () => {
    expect(await processTool.execute({ action: "poll", id: "proc_999999" }, ctx)).toMatchObject({
      isError: true,
      content: expect.stringContaining("no process with id proc_999999"),
    });
    expect(await processTool.execute({ action: "kill" }, ctx)).toMatchObject({
      isError: true,
      content: expect.stringContaining("needs an id"),
    });
  });

  it("keeps only the last bytes of a large output and says so", async () => {
    const p = processManager.start({
      command: "head -c 5000 /dev/zero | tr '\\0' a; echo; echo END",
      cwd: dir,
      env: process.env,
      taskId: ctx.taskId,
      bufferBytes: 1000,
    });
    await processManager.wait(p, 30_000);
    const out = await call({ action: "poll", id: p.id });
    expect(out).toMatch(/\[\.\.\. 4005 bytes dropped from the buffer before this \.\.\.\]/);
    expect(out).toMatch(/END$/);
  });
});
