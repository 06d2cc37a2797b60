// SIGTERM during a running command, and several processes on one session (issue 12), with the
// built bin against the fake LLM server.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { type NodeRow, openStore } from "@iris/host";
import type { FakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, runIris, type TempHome } from "./helpers.js";

let fake: FakeLlm;
let home: TempHome;
let close: () => Promise<void>;
// The commands' own folder, outside the profile: a command that names the profile folder is
// Iris's own state, asked about in every mode (also under --yolo).
let work: string;
beforeEach(async () => {
  ({ fake, home, close } = await fakeHome());
  work = mkdtempSync(join(tmpdir(), "iris-signals-work-"));
});
afterEach(async () => {
  await close();
  rmSync(work, { recursive: true, force: true });
});

const env = () => ({ IRIS_HOME: home.home });
const route = () => routeArgs(fake.baseUrl, "chat_completions");
const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 25));
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** No user message follows a user message on the path to `leaf` (SPEC H1). */
function alternates(path: readonly NodeRow[]): boolean {
  return path.every((n, i) => i === 0 || !(n.role === "user" && path[i - 1]?.role === "user"));
}

describe("SIGTERM", () => {
  it("during a running command: no child left, every call answered, store closed, exit 143", async () => {
    const pidFile = join(work, "child-pid.txt");
    // exec: the pid written is the sleeping process itself, in the command's process group.
    const command = `sh -c 'echo $$ > ${pidFile}; exec sleep 60'`;
    fake.enqueue({ toolCalls: [{ name: "terminal", arguments: { command } }] });
    const run = await runIris(["-p", "start it", "--yolo", ...route()], {
      env: env(),
      cwd: work,
      onSpawn: (child) => {
        void until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "").then(() =>
          child.kill("SIGTERM"),
        );
      },
    });
    expect(run.code, run.stderr).toBe(143);
    expect(run.stderr).not.toMatch(/Error:|at .*\.js:\d+/);
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    await until(() => !alive(pid));
    expect(alive(pid)).toBe(false);
    const store = openStore(join(home.home, "state.db"));
    const [session] = store.listSessions({ limit: 1 });
    const path = store.activePath(session!.id);
    const unresolved = store.listUnresolved(session!.id);
    store.close();
    expect(path.map((n) => n.role)).toEqual(["user", "assistant", "tool"]);
    // The killed command settled within the grace period: its receipt is not left open.
    expect(unresolved).toEqual([]);
  });
});

describe("one live turn per session", () => {
  it("a turn in a session another live process holds is refused with a clear message", async () => {
    fake.enqueue({ text: "first" });
    expect((await runIris(["-p", "one", ...route()], { env: env() })).code).toBe(0);
    const store = openStore(join(home.home, "state.db"));
    const [session] = store.listSessions({ limit: 1 });
    // This test process (alive, same host) holds the session's lease.
    const held = store.leases.acquire({
      sessionId: session!.id,
      holder: { pid: process.pid, host: hostname() },
      ttlMs: 60_000,
      now: Date.now(),
      isAlive: () => true,
    });
    expect(held.ok).toBe(true);
    const refused = await runIris(["-p", "two", "-c", ...route()], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `session ${session!.id.slice(-8)} is busy: another iris (pid ${process.pid})`,
    );
    expect(fake.requests).toHaveLength(1);
    // Released (or its holder gone), the next run goes ahead.
    store.leases.release(session!.id, { pid: process.pid, host: hostname() });
    store.close();
    fake.enqueue({ text: "second" });
    const ok = await runIris(["-p", "two", "-c", ...route()], { env: env() });
    expect(ok.stdout).toBe("second\n");
  });

  it("five concurrent -c runs: each answers or is refused, and every stored branch alternates", async () => {
    fake.enqueue({ text: "base" });
    expect((await runIris(["-p", "base", ...route()], { env: env() })).code).toBe(0);
    // Slow answers, so the runs overlap.
    fake.setHandler(async () => {
      await new Promise((r) => setTimeout(r, 400));
      return { text: "answer" };
    });
    const runs = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => runIris(["-p", `message ${i}`, "-c", ...route()], { env: env() })),
    );
    for (const r of runs) {
      if (r.code === 0) expect(r.stdout).toBe("answer\n");
      else {
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(/is busy: another iris \(pid \d+\) is running a turn/);
      }
    }
    const answered = runs.filter((r) => r.code === 0).length;
    expect(answered).toBeGreaterThanOrEqual(1);
    const store = openStore(join(home.home, "state.db"));
    const [session] = store.listSessions({ limit: 1 });
    const leaves = store.listBranches(session!.id);
    for (const leaf of leaves) expect(alternates(store.pathToRoot(leaf.id))).toBe(true);
    const users = store.activePath(session!.id).filter((n) => n.role === "user").length;
    store.close();
    expect(users).toBeGreaterThanOrEqual(2);
    expect(fake.requests).toHaveLength(1 + answered);
  });
});

describe("SIGTERM in the interactive chat", () => {
  it("stops the running command, keeps a complete history and exits 143", async () => {
    const { startPty } = await import("./pty.js");
    const pidFile = join(work, "child-pid.txt");
    const command = `sh -c 'echo $$ > ${pidFile}; exec sleep 60'`;
    fake.enqueue({ toolCalls: [{ name: "terminal", arguments: { command } }] });
    const t = startPty(["--yolo", ...route()], { IRIS_HOME: home.home }, work);
    await t.waitFor("› ");
    t.type("start it\r");
    await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "");
    // The relay's child is iris itself.
    const relay = t.child.pid!;
    const iris = Number(readFileSync(`/proc/${relay}/task/${relay}/children`, "utf8").trim().split(/\s+/)[0]);
    process.kill(iris, "SIGTERM");
    expect(await t.exited).toBe(143);
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    await until(() => !alive(pid));
    const store = openStore(join(home.home, "state.db"));
    const [session] = store.listSessions({ limit: 1 });
    const roles = store.activePath(session!.id).map((n) => n.role);
    store.close();
    expect(roles).toEqual(["user", "assistant", "tool"]);
  });
});
