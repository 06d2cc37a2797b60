// Issue 13, item 4, end to end: `approvals.mode: smart` sends a flagged command to a judge model
// through the same client (here the fake server, main route) with the command and the working
// directory; approve runs it, deny refuses it, and a failed judge call falls back to asking
// (here: nobody can answer, so it is not run).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "@iris/host";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { routeArgs, runIris, tempHome } from "./helpers.js";

let fake: FakeLlm;
let home: ReturnType<typeof tempHome>;
let work: string;
beforeEach(async () => {
  fake = await startFakeLlm();
  home = tempHome();
  work = join(home.home, "work");
  mkdirSync(join(work, "node_modules", "pkg"), { recursive: true });
  writeFileSync(join(home.home, "config.yaml"), "approvals:\n  mode: smart\n");
});
afterEach(async () => {
  await fake.close();
  home.cleanup();
});

const clean = { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf node_modules" } }] };
const run = () =>
  runIris(["-p", "clean up", ...routeArgs(fake.baseUrl, "chat_completions")], {
    env: { IRIS_HOME: home.home },
    cwd: work,
  });
const body = (i: number) => fake.requests[i]?.rawBody.toString("utf8") ?? "";

describe("smart approval mode", () => {
  it("runs the command when the judge approves, after showing it the command and folder", async () => {
    fake.enqueue(clean, { text: "approve" }, { text: "cleaned" });
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("cleaned");
    expect(body(1)).toContain("rm -rf node_modules");
    expect(body(1)).toContain(`Working directory: ${work}`);
    expect(body(1)).not.toContain('"tools"');
    expect(existsSync(join(work, "node_modules"))).toBe(false);
    expect(fake.violations).toEqual([]);
    // The judge's call is billed like any other (F3): three calls, three usage rows.
    const store = openStore(join(home.home, "state.db"));
    try {
      const [session] = await store.listSessions({ limit: 1 });
      expect(await store.usageForSession(session!.id)).toHaveLength(3);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("refuses the command when the judge denies", async () => {
    fake.enqueue(clean, { text: "deny" }, { text: "not cleaned" });
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    expect(body(2)).toMatch(/denied by the approval model/);
    expect(existsSync(join(work, "node_modules", "pkg"))).toBe(true);
  }, 60_000);

  it("asks when the judge answers ask or its call fails", async () => {
    fake.enqueue(
      clean,
      { text: "ask" },
      clean,
      { fault: "status", status: 400, body: { error: { message: "bad judge" } } },
      { text: "gave up" },
    );
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    // Asked, and with no terminal to ask on, not run either time.
    expect(body(2)).toMatch(/nobody can approve/);
    expect(body(4)).toMatch(/nobody can approve/);
    expect(existsSync(join(work, "node_modules", "pkg"))).toBe(true);
  }, 60_000);
});
