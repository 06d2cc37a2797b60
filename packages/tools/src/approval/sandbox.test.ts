// Every dangerous command of the corpus goes through the real terminal tool, in manual mode with
// nobody to ask (no TTY), in a sandbox folder that is also $HOME: nothing may run.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolContext } from "../define.js";
import { dispatchToolCall } from "../dispatch/dispatch.js";
import { loadBuiltinTools } from "../registry/load-builtin.js";
import { ToolRegistry } from "../registry/registry.js";
import { localWorkspace } from "../workspace/local.js";
import { DANGEROUS } from "./corpus/corpus.js";
import { createApprovalPolicy } from "./policy.js";

/** `${IFS}` spelled so the linter does not take it for a forgotten template. */
const IFS = "$" + "{IFS}";
const sandbox = mkdtempSync(join(tmpdir(), "iris-approval-sandbox-"));
const realHome = process.env.HOME;
const canary = join(sandbox, "x", "canary");

beforeAll(() => {
  // `~` in the real shell is the sandbox too, so a check that failed open would hit only it.
  process.env.HOME = sandbox;
  mkdirSync(join(sandbox, "x"));
  writeFileSync(canary, "alive");
  writeFileSync(join(sandbox, "s.sh"), "rm -rf ~/x\n");
});
afterAll(() => {
  process.env.HOME = realHome;
  rmSync(sandbox, { recursive: true, force: true });
});

async function setUp() {
  const registry = new ToolRegistry({ logger: { warn: () => {} } });
  await loadBuiltinTools(registry, { only: ["terminal"] });
  const policy = createApprovalPolicy({ mode: "manual", home: sandbox });
  return { registry, policy };
}

function context(onExecute: () => { run: boolean }): ToolContext {
  return {
    signal: new AbortController().signal,
    taskId: "approval-sandbox",
    workspace: localWorkspace(),
    cwd: sandbox,
    progress: () => {},
    interactive: false,
    approve: async () => "once",
    beforeExecute: async () =>
      onExecute().run
        ? { run: true }
        : { run: false, result: { content: "refused by the test", isError: true } },
  };
}

describe("dangerous commands through the real terminal tool (manual mode, no TTY)", () => {
  it("runs none of the issue's forms, with the real shell ready to run them", async () => {
    const { registry, policy } = await setUp();
    const forms = [
      "$(echo rm) -rf ~/x",
      "`echo rm` -rf ~/x",
      "x=rm; $x -rf ~/x",
      '"$(printf rm)" -rf ~/x',
      "a=r; b=m; $a$b -rf ~/x",
      "bash <<< 'rm -rf ~/x'",
      "bash s.sh",
      "$'\\x72m' -rf ~/x",
      `rm${IFS}-rf${IFS}$HOME/x`,
      "{rm,-rf,$HOME/x}",
      "busybox rm -rf ~/x",
      "perl -e 'use File::Path; rmtree(\"$ENV{HOME}/x\")'",
    ];
    for (const command of forms) {
      // The gate lets the command run: only the approval check stands between it and the canary.
      const r = await dispatchToolCall(
        registry,
        { name: "terminal", argumentsJson: JSON.stringify({ command }) },
        context(() => ({ run: true })),
        policy,
      );
      expect(r.isError, command).toBe(true);
      expect(r.content, command).toMatch(/needs approval|blocked/);
      expect(existsSync(canary), command).toBe(true);
    }
  });

  it("runs none of the corpus", async () => {
    const { registry, policy } = await setUp();
    const reached: string[] = [];
    const before = readdirSync(sandbox).sort();
    for (const command of DANGEROUS) {
      // Here the gate refuses as a safety net (the corpus also names `/` and disks), and records
      // any command that got past the approval check: the test fails on it.
      const r = await dispatchToolCall(
        registry,
        { name: "terminal", argumentsJson: JSON.stringify({ command }) },
        context(() => {
          reached.push(command);
          return { run: false };
        }),
        policy,
      );
      expect(r.isError, command).toBe(true);
    }
    expect(reached).toEqual([]);
    expect(readdirSync(sandbox).sort()).toEqual(before);
    expect(existsSync(canary)).toBe(true);
  }, 120_000);
});
