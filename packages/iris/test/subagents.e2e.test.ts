// Issue 13, item 5, end to end with the built `iris`: a subagent stays inside its parent — its
// tools are cut down to the parent's menu, tools off its menu do not run (agent-level ones
// included), nesting is limited and delegation.max_concurrent_children is enforced.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, runIris, type TempHome } from "./helpers.js";

let fake: FakeLlm;
let home: TempHome;
let work: string;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ fake, home, work, close } = await fakeHome(true));
});
afterEach(() => close());

const toolNames = (i: number): string[] => {
  const body = JSON.parse(fake.requests[i]?.rawBody.toString("utf8") ?? "{}") as {
    tools?: { function?: { name: string } }[];
  };
  return (body.tools ?? []).map((t) => t.function?.name ?? "").sort();
};
const body = (i: number) => fake.requests[i]?.rawBody.toString("utf8") ?? "";
const run = () =>
  runIris(["-p", "delegate it", ...routeArgs(fake.baseUrl, "chat_completions")], {
    env: { IRIS_HOME: home.home },
    cwd: work,
  });

describe("subagents inside their parent", () => {
  it("gives a file-only parent's child no terminal, and runs no tool off the child's menu", async () => {
    writeFileSync(join(home.home, "config.yaml"), "toolsets:\n  cli: [file, delegation]\n");
    fake.enqueue(
      { toolCalls: [{ name: "delegate_task", arguments: { goal: "make a file", toolsets: ["all"] } }] },
      {
        toolCalls: [
          { name: "terminal", arguments: { command: "touch pwned" } },
          { name: "todo", arguments: { todos: [{ id: "1", content: "x", status: "pending" }] } },
        ],
      },
      { text: "child done" },
      { text: "parent done" },
    );
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("parent done");
    expect(toolNames(0)).toEqual(["delegate_task", "patch", "read_file", "search_files", "write_file"]);
    // The child asked for everything and got the parent's file tools only: no terminal, no
    // process, no todo, and (max_depth 1) no delegate_task.
    expect(toolNames(1)).toEqual(["patch", "read_file", "search_files", "write_file"]);
    expect(body(2)).toMatch(/unknown tool 'terminal'/);
    expect(body(2)).toMatch(/unknown tool 'todo'/);
    expect(existsSync(join(work, "pwned"))).toBe(false);
    expect(fake.violations).toEqual([]);
  }, 60_000);

  it("lets a child delegate only below delegation.max_depth, within max_concurrent_children", async () => {
    writeFileSync(
      join(home.home, "config.yaml"),
      "toolsets:\n  cli: [file, delegation]\ndelegation:\n  max_depth: 2\n  max_concurrent_children: 1\n",
    );
    fake.enqueue(
      {
        toolCalls: [
          { name: "delegate_task", arguments: { goal: "outer", toolsets: ["file", "delegation"] } },
        ],
      },
      { toolCalls: [{ name: "delegate_task", arguments: { goal: "inner", toolsets: ["file"] } }] },
      { text: "child done" },
      { text: "parent done" },
    );
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    expect(toolNames(1)).toContain("delegate_task");
    // The child's own child would be a second subagent running at once: refused.
    expect(body(2)).toMatch(/max_concurrent_children \(1\)/);
    expect(fake.requests).toHaveLength(4);
  }, 60_000);

  it("counts a child's spending against the parent's turn and session budgets", async () => {
    writeFileSync(
      join(home.home, "config.yaml"),
      "toolsets:\n  cli: [file, delegation]\nagent:\n  cost_budget_usd: 0.25\n",
    );
    // gpt-4o-mini's catalogue price: $0.15 per million input tokens, so each child spends $0.15.
    const expensive = { input: 1_000_000, output: 0 };
    const delegate = {
      toolCalls: [{ name: "delegate_task", arguments: { goal: "work", toolsets: ["file"] } }],
    };
    fake.enqueue(
      delegate,
      { text: "child one done", usage: expensive },
      delegate,
      { text: "child two done", usage: expensive },
      { text: "never asked for" },
    );
    const route = ["--provider", "openai", "--base-url", fake.baseUrl, "--model", "gpt-4o-mini"];
    const first = await runIris(["-p", "delegate twice", ...route, "--api-mode", "chat_completions"], {
      env: { IRIS_HOME: home.home, OPENAI_API_KEY: "sk-test-not-real-0000" },
      cwd: work,
    });
    // $0.30 spent by the children: the parent stops before its third model call.
    expect(first.stderr).toMatch(/cost_budget_exceeded/);
    expect(fake.requests).toHaveLength(4);

    const listed = await runIris(["sessions", "list"], { env: { IRIS_HOME: home.home } });
    const parent =
      listed.stdout
        .split("\n")
        .find((l) => l.includes("cli"))
        ?.split(/\s+/)[0] ?? "";
    expect(parent).not.toBe("");
    const next = await runIris(
      ["-p", "go on", "--resume", parent, ...route, "--api-mode", "chat_completions"],
      {
        env: { IRIS_HOME: home.home, OPENAI_API_KEY: "sk-test-not-real-0000" },
        cwd: work,
      },
    );
    // The session's budget includes its children: the next turn does not call the model at all.
    expect(next.stderr).toMatch(/cost_budget_exceeded/);
    expect(fake.requests).toHaveLength(4);
  }, 90_000);

  it("shows a child's calls folded under its delegate_task line, as the turn view words them", async () => {
    writeFileSync(join(home.home, "config.yaml"), "toolsets:\n  cli: [file, delegation]\n");
    writeFileSync(join(work, "notes.md"), "the notes\n");
    fake.enqueue(
      { toolCalls: [{ name: "delegate_task", arguments: { goal: "read the notes", toolsets: ["file"] } }] },
      // One call a round: read-only calls of one round run at once and may end in either order.
      { toolCalls: [{ name: "read_file", arguments: { path: "notes.md" } }] },
      { toolCalls: [{ name: "read_file", arguments: { path: "missing.md" } }] },
      { text: "child done" },
      { text: "parent done" },
    );
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    // The parent's line is opened above its child's calls and closed below them; the child's
    // text never reaches the answer on stdout.
    expect(r.stderr).toMatch(
      /⚙ delegate_task {2}[^\n]*read the notes[^\n]*\n {2}↳ ✓ read_file: notes\.md\n {2}↳ ✗ read_file: missing\.md\n(?: {4}[^\n]*\n)*✓ delegate_task {2}[^\n]*\(\d+\.\ds\)\n/,
    );
    expect(r.stdout).toBe("parent done\n");
  }, 60_000);
});
