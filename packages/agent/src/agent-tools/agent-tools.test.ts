import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolBox, ToolRunContext } from "../ports.js";
import { withAgentTools } from "./intercept.js";
import { MemoryFiles } from "./memory-files.js";
import { TodoList } from "./todo-list.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function memory() {
  const dir = mkdtempSync(join(tmpdir(), "iris-mem-"));
  dirs.push(dir);
  return { dir, files: new MemoryFiles({ memory: join(dir, "MEMORY.md"), user: join(dir, "USER.md") }) };
}
/** A toolbox offering `names` (the agent-level tools run only when they are on the menu). */
const toolbox = (names: string[]): ToolBox => ({
  specs: () => names.map((name) => ({ name, description: name, parameters: { type: "object" } })),
  traits: () => undefined,
  run: async (call) => ({ content: `inner:${call.name}`, isError: false }),
});
const inner = toolbox(["todo", "memory", "session_search", "delegate_task"]);
const ctx = {} as ToolRunContext;
const call = (name: string, args: unknown) => ({
  type: "toolCall" as const,
  callId: "c1",
  name,
  argumentsJson: JSON.stringify(args),
});

describe("memory tool", () => {
  it("writes to disk at once and refuses an over-limit write naming the limit and current use", async () => {
    const { dir, files } = memory();
    const box = withAgentTools(inner, { todos: new TodoList(), memory: files });
    const r1 = await box.run(
      call("memory", { action: "add", target: "user", content: "Prefers Korean answers" }),
      ctx,
    );
    expect(r1.isError).toBe(false);
    expect(readFileSync(join(dir, "USER.md"), "utf8")).toContain("Prefers Korean answers");
    const big = "x".repeat(1400);
    const r2 = await box.run(call("memory", { action: "add", target: "user", content: big }), ctx);
    expect(r2.isError).toBe(true);
    expect(r2.content).toMatch(/limited to 1375 characters; it holds 23/);
    expect(readFileSync(join(dir, "USER.md"), "utf8")).not.toContain("xxxx");
  });

  it("replaces and removes by a unique snippet", async () => {
    const { files } = memory();
    files.apply("add", "memory", "uses pnpm");
    files.apply("add", "memory", "deploys on fridays");
    files.apply("replace", "memory", "uses npm", "pnpm");
    expect(files.entries("memory")).toEqual(["uses npm", "deploys on fridays"]);
    expect(() => files.apply("remove", "memory", undefined, "s")).toThrow(/matches 2/);
    files.apply("remove", "memory", undefined, "fridays");
    expect(files.entries("memory")).toEqual(["uses npm"]);
  });
});

describe("todo tool", () => {
  it("keeps a list per session, merges by id and is recovered from history", async () => {
    const todos = new TodoList();
    const box = withAgentTools(inner, { todos });
    const r = await box.run(
      call("todo", {
        todos: [
          { id: "1", content: "a", status: "pending" },
          { id: "2", content: "b", status: "pending" },
        ],
      }),
      ctx,
    );
    await box.run(call("todo", { todos: [{ id: "1", content: "a", status: "done" }], merge: true }), ctx);
    const read = await box.run(call("todo", {}), ctx);
    expect(JSON.parse(read.content).todos.map((t: { status: string }) => t.status)).toEqual([
      "done",
      "pending",
    ]);
    const recovered = TodoList.fromHistory([
      { role: "tool", callId: "c1", toolName: "todo", content: r.content, isError: false },
    ]);
    expect(recovered.write(undefined, false)).toHaveLength(2);
  });

  it("names the wrong field, and passes other tools through", async () => {
    const box = withAgentTools(inner, { todos: new TodoList() });
    const bad = await box.run(call("todo", { todos: [{ id: "1", content: "a", status: "later" }] }), ctx);
    expect(bad.isError).toBe(true);
    expect(bad.content).toContain("todos.0.status");
    expect((await box.run(call("terminal", {}), ctx)).content).toBe("inner:terminal");
  });
});

describe("the menu decides", () => {
  it("answers an agent-level tool only when it is offered; otherwise the inner toolbox does", async () => {
    let delegated = 0;
    const services = {
      todos: new TodoList(),
      delegate: async () => {
        delegated++;
        return { content: "{}", isError: false };
      },
    };
    const offMenu = withAgentTools(toolbox(["read_file"]), services);
    expect((await offMenu.run(call("delegate_task", { goal: "x" }), ctx)).content).toBe(
      "inner:delegate_task",
    );
    expect((await offMenu.run(call("todo", { todos: [] }), ctx)).content).toBe("inner:todo");
    const onMenu = withAgentTools(toolbox(["delegate_task"]), services);
    await onMenu.run(call("delegate_task", { goal: "x" }), ctx);
    expect(delegated).toBe(1);
  });
});
