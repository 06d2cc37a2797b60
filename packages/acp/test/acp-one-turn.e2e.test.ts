// One turn at a time per session across front ends (SPEC D1): an editor's turn and a terminal's
// `iris -r ID -p` on the same session never interleave. Whichever comes second is refused in its
// own protocol's shape (the CLI's message and exit 1, ACP's session_busy error), and the stored
// history alternates user/assistant with every call answered.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { openStore, StoreConversation } from "@iris/host";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { SESSION_BUSY_CODE } from "../src/acp-session.js";
import { editor, waitFor } from "./harness.js";
import { IRIS_BIN } from "./spawn.js";

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-acp-one-turn");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

/** `iris ARGS` in a second process on the editor's profile; resolves with its exit and stderr. */
function cli(
  args: string[],
  cwd: string,
): { done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [IRIS_BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", IRIS_HOME: join(dir.path, "home") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  return { done: new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr }))) };
}

async function storedRoles(sessionId: string): Promise<{ roles: string[]; text: string }> {
  const store = openStore(join(dir.path, "home", "state.db"));
  try {
    const history = await (await StoreConversation.open(store, sessionId)).history();
    return { roles: history.map((m) => m.role), text: JSON.stringify(history) };
  } finally {
    await store.close();
  }
}

/** Resolves once `pred` holds (checked on every turn of the event loop, no timers). */
function until(pred: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (pred() ? resolve() : setImmediate(check));
    check();
  });
}

it("a terminal's --resume while the editor's call waits for permission is refused and takes nothing from it", async () => {
  let allow: () => void = () => {};
  const allowed = new Promise<void>((resolve) => {
    allow = resolve;
  });
  const e = editor(fake, dir, {
    permission: async () => {
      await allowed;
      return { outcome: { outcome: "selected", optionId: "allow_once" } };
    },
  });
  mkdirSync(join(e.work, "junk"));
  fake.enqueue(
    { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf junk" } }] },
    { text: "removed" },
  );
  await e.run(async (ctx) => {
    const s = await ctx.buildSession(e.work).start();
    const pending = s.prompt("clean up");
    await waitFor(e.updates, () => e.permissions.length > 0);
    // The editor's call is open (asked, not run): a second process must not take it for a crash.
    const terminal = await cli(["-r", s.sessionId, "-p", "hello from the terminal"], e.work).done;
    expect(terminal.code).toBe(1);
    expect(terminal.stderr).toMatch(/is busy: another iris \(pid \d+\) is running a turn in it/);
    expect(terminal.stderr).not.toContain("never reported back");
    allow();
    expect((await pending).stopReason).toBe("end_turn");
    const { roles, text } = await storedRoles(s.sessionId);
    expect(roles).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(text).not.toContain("hello from the terminal");
    expect(text).not.toContain("effect_outcome_uncertain");
    expect(fake.requests).toHaveLength(2); // the terminal never called the model
  });
});

it("an editor's prompt while a terminal's turn runs in the session gets ACP's session_busy error", async () => {
  const e = editor(fake, dir);
  fake.enqueue({ text: "first answer" });
  await e.run(async (ctx) => {
    const s = await ctx.buildSession(e.work).start();
    expect((await s.prompt("one")).stopReason).toBe("end_turn");
    // The terminal's model call is held until released: its turn runs, holding the lease.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    fake.setHandler(async () => {
      await held;
      return { text: "terminal answer" };
    });
    const terminal = cli(["-r", s.sessionId, "-p", "two"], e.work);
    await until(() => fake.requests.length === 2);
    const refused = await ctx
      .request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [{ type: "text", text: "three" }],
      })
      .then(
        () => undefined,
        (err: unknown) => err as { code?: number; message?: string; data?: { reason?: string } },
      );
    expect(refused?.code).toBe(SESSION_BUSY_CODE);
    expect(refused?.data?.reason).toBe("session_busy");
    expect(refused?.message).toMatch(/is busy: another iris \(pid \d+\)/);
    release();
    const done = await terminal.done;
    expect(done.code).toBe(0);
    expect(done.stdout).toContain("terminal answer");
    const { roles, text } = await storedRoles(s.sessionId);
    expect(roles).toEqual(["user", "assistant", "user", "assistant"]);
    expect(text).not.toContain('"three"');
  });
});
