import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApprovalPolicy } from "../approval/policy.js";
import { type ApprovalAnswer, defineTool, type ToolContext, type ToolDefinition } from "../define.js";
import { ToolRegistry } from "../registry/registry.js";
import { localWorkspace } from "../workspace/local.js";
import { dispatchToolCall } from "./dispatch.js";

const spillDir = mkdtempSync(join(tmpdir(), "iris-dispatch-"));
afterAll(() => rmSync(spillDir, { recursive: true, force: true }));

function ctx(
  answer: ApprovalAnswer = "deny",
  signal = new AbortController().signal,
): ToolContext & { asked: number } {
  const c = {
    asked: 0,
    signal,
    taskId: "t",
    workspace: localWorkspace(),
    cwd: "/tmp",
    progress: () => {},
    approve: async () => {
      c.asked++;
      return answer;
    },
  };
  return c;
}

const ran: string[] = [];
const shell = defineTool({
  name: "shell",
  toolset: "terminal",
  description: "Runs a command.",
  parameters: z.object({ command: z.string(), timeout: z.number().int().positive().optional() }),
  effect: "mutate",
  approvalSubject: (a) => a.command,
  execute: async (a) => {
    ran.push(a.command);
    return `ran ${a.command}`;
  },
});

function registry(...extra: ToolDefinition[]): ToolRegistry {
  const r = new ToolRegistry({ logger: { warn: () => {} } });
  r.register(shell as ToolDefinition);
  for (const t of extra) r.register(t);
  return r;
}

const manual = () => createApprovalPolicy({ mode: "manual", home: "/home/u" });
const parse = (content: string) => JSON.parse(content) as Record<string, unknown>;

describe("dispatchToolCall", () => {
  it("runs a tool with validated arguments", async () => {
    const out = await dispatchToolCall(
      registry(),
      { name: "shell", argumentsJson: '{"command":"ls"}' },
      ctx(),
      manual(),
    );
    expect(out).toEqual({ content: "ran ls", isError: false });
  });

  it("fails an unknown name without guessing", async () => {
    const out = await dispatchToolCall(registry(), { name: "shel", argumentsJson: "{}" }, ctx(), manual());
    expect(out.isError).toBe(true);
    expect(parse(out.content).error).toContain("unknown tool 'shel'");
    expect(out.content).not.toContain("shell");
  });

  it("names the wrong field and what was expected", async () => {
    const r = registry();
    const wrongType = await dispatchToolCall(
      r,
      { name: "shell", argumentsJson: '{"command":42}' },
      ctx(),
      manual(),
    );
    expect(wrongType.isError).toBe(true);
    expect(parse(wrongType.content).error).toMatch(/'command'.*expected string/);
    const nested = await dispatchToolCall(
      r,
      { name: "shell", argumentsJson: '{"command":"x","timeout":-1}' },
      ctx(),
      manual(),
    );
    expect(parse(nested.content).error).toMatch(/'timeout'/);
    const badJson = await dispatchToolCall(
      r,
      { name: "shell", argumentsJson: '{"command":' },
      ctx(),
      manual(),
    );
    expect(parse(badJson.content).error).toContain("not valid JSON");
  });

  it("asks the approval policy for the tool's subject and does not run a denied command", async () => {
    ran.length = 0;
    const r = registry();
    const denied = await dispatchToolCall(
      r,
      { name: "shell", argumentsJson: '{"command":"rm -rf build"}' },
      ctx("deny"),
      manual(),
    );
    expect(denied.isError).toBe(true);
    expect(parse(denied.content)).toMatchObject({ denied: true });
    const blocked = await dispatchToolCall(
      r,
      { name: "shell", argumentsJson: '{"command":"rm -rf /"}' },
      ctx("once"),
      manual(),
    );
    expect(parse(blocked.content).error).toContain("blocked");
    const approvedCtx = ctx("once");
    const approved = await dispatchToolCall(
      r,
      { name: "shell", argumentsJson: '{"command":"rm -rf build"}' },
      approvedCtx,
      manual(),
    );
    expect(approved).toEqual({ content: "ran rm -rf build", isError: false });
    expect(approvedCtx.asked).toBe(1);
    expect(ran).toEqual(["rm -rf build"]);
  });

  it("judges relative paths in the subject against the tool's own working directory", async () => {
    ran.length = 0;
    const scoped = { ...shell, name: "scoped", approvalCwd: () => "/" } as ToolDefinition;
    const r = registry(scoped);
    const blocked = await dispatchToolCall(
      r,
      { name: "scoped", argumentsJson: '{"command":"rm -rf *"}' },
      ctx("once"),
      manual(),
    );
    expect(parse(blocked.content).error).toContain("blocked");
    const asked = ctx("once");
    const plain = await dispatchToolCall(
      r,
      { name: "shell", argumentsJson: '{"command":"rm -rf *"}' },
      asked,
      manual(),
    );
    expect(plain.isError).toBe(false);
    expect(asked.asked).toBe(1);
    expect(ran).toEqual(["rm -rf *"]);
  });

  it("seals a tool's throw and a broken policy into JSON errors", async () => {
    const thrower = defineTool({
      name: "thrower",
      toolset: "x",
      description: "",
      parameters: z.object({}),
      effect: "read",
      execute: async () => {
        throw new TypeError("kaput");
      },
    });
    const r = registry(thrower as ToolDefinition);
    const out = await dispatchToolCall(r, { name: "thrower", argumentsJson: "" }, ctx(), manual());
    expect(out.isError).toBe(true);
    expect(parse(out.content)).toEqual({ error: "kaput", tool: "thrower" });

    const brokenPolicy = {
      check: () => {
        throw new Error("policy exploded");
      },
    };
    const sealed = await dispatchToolCall(
      r,
      { name: "shell", argumentsJson: '{"command":"ls"}' },
      ctx(),
      brokenPolicy,
    );
    expect(sealed.isError).toBe(true);
    expect(parse(sealed.content).error).toContain("policy exploded");
  });

  it("returns when the signal aborts even if the tool ignores it", async () => {
    const hang = defineTool({
      name: "hang",
      toolset: "x",
      description: "",
      parameters: z.object({}),
      effect: "read",
      execute: (_a, c) => {
        queueMicrotask(() => c.progress({ message: "started" }));
        return new Promise<string>(() => {});
      },
    });
    const controller = new AbortController();
    const c = ctx("deny", controller.signal);
    c.progress = () => controller.abort();
    const out = await dispatchToolCall(
      registry(hang as ToolDefinition),
      { name: "hang", argumentsJson: "{}" },
      c,
      manual(),
    );
    expect(out.isError).toBe(true);
    expect(parse(out.content).error).toContain("cancelled");

    const already = await dispatchToolCall(
      registry(),
      { name: "shell", argumentsJson: '{"command":"ls"}' },
      c,
      manual(),
    );
    expect(parse(already.content).error).toContain("cancelled before it ran");
  });

  it("caps big results: a paging hint for tools that page, a saved file otherwise", async () => {
    const big = "x".repeat(200);
    const make = (name: string, truncationHint?: string) =>
      defineTool({
        name,
        toolset: "x",
        description: "",
        parameters: z.object({}),
        effect: "read",
        truncationHint,
        execute: async () => big,
      }) as ToolDefinition;
    const r = registry(make("pager", "use offset and limit to read the rest"), make("dumper"));
    const paged = await dispatchToolCall(r, { name: "pager", argumentsJson: "{}" }, ctx(), manual(), {
      maxResultChars: 50,
    });
    expect(paged.content.startsWith("x".repeat(50))).toBe(true);
    expect(paged.content).toContain("use offset and limit");
    expect(paged.content).not.toContain("x".repeat(51));

    const saved = await dispatchToolCall(r, { name: "dumper", argumentsJson: "{}" }, ctx(), manual(), {
      maxResultChars: 50,
      spillDir,
    });
    const path = /saved to (\S+);/.exec(saved.content)?.[1];
    expect(path).toBeDefined();
    expect(readFileSync(path as string, "utf8")).toBe(big);
  });
});

describe("the execute gate", () => {
  it("is asked only after approval, right before the tool runs, and can answer instead", async () => {
    const order: string[] = [];
    const gated = (answer: ApprovalAnswer, run: boolean): ToolContext => {
      const c = ctx(answer);
      return {
        ...c,
        approve: async (r) => {
          order.push("approve");
          return c.approve(r);
        },
        beforeExecute: async () => {
          order.push("gate");
          return run ? { run: true } : { run: false, result: { content: "replayed", isError: false } };
        },
      };
    };
    ran.length = 0;
    const denied = await dispatchToolCall(
      registry(),
      { name: "shell", argumentsJson: '{"command":"rm -rf build/"}' },
      gated("deny", true),
      manual(),
    );
    expect(denied.isError).toBe(true);
    expect(order).toEqual(["approve"]); // a denied call never reaches the gate
    order.length = 0;
    await dispatchToolCall(
      registry(),
      { name: "shell", argumentsJson: '{"command":"rm -rf build/"}' },
      gated("once", true),
      manual(),
    );
    expect(order).toEqual(["approve", "gate"]);
    expect(ran).toEqual(["rm -rf build/"]);
    const answered = await dispatchToolCall(
      registry(),
      { name: "shell", argumentsJson: '{"command":"ls"}' },
      gated("once", false),
      manual(),
    );
    expect(answered).toEqual({ content: "replayed", isError: false });
    expect(ran).toEqual(["rm -rf build/"]); // the gate's answer stands; the tool did not run
  });
});
