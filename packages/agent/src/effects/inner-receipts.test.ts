// Calls a tool makes itself (execute_code's inner calls) go through the same approval and get
// receipts of their own, numbered under the outer call's operation, in a real SQLite store.
import { openStore } from "@iris/store";
import { createApprovalPolicy, defineTool, selectMenu, ToolRegistry } from "@iris/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentEvents } from "../events.js";
import { RegistryToolBox } from "../tools/registry-toolbox.js";
import { listAllEffects } from "./lookup.js";
import { argsFingerprint, logicalOpId } from "./op-id.js";
import { call, checkpoint, ctxFor, type Fixture, storeFixture } from "./test/support.js";
import { withReceipts } from "./with-receipts.js";

let f: Fixture;
beforeEach(async () => {
  f = await storeFixture();
});
afterEach(() => f.cleanup());

/** `batch` runs each command through ctx.callTool, like an execute_code program would. */
async function batchBox(opts: { answer: "once" | "deny"; ran: string[]; hangOn?: string }) {
  const registry = new ToolRegistry({ logger: { warn: () => {} } });
  registry.register(
    defineTool({
      name: "terminal",
      toolset: "terminal",
      description: "Runs a command.",
      parameters: z.object({ command: z.string() }),
      effect: "mutate",
      approvalSubject: (a) => a.command,
      execute: async (a) => {
        opts.ran.push(a.command);
        // The process "dies" while this one runs: it never returns.
        if (a.command === opts.hangOn) await new Promise(() => {});
        return `ran ${a.command}`;
      },
    }),
  );
  registry.register(
    defineTool({
      name: "read_file",
      toolset: "terminal",
      description: "Reads.",
      parameters: z.object({ path: z.string() }),
      effect: "read",
      execute: async (a) => `contents of ${a.path}`,
    }),
  );
  registry.register(
    defineTool({
      name: "batch",
      toolset: "terminal",
      description: "Runs commands through the tool channel.",
      parameters: z.object({ commands: z.array(z.string()) }),
      effect: "mutate",
      execute: async (a, ctx) => {
        const out: string[] = [(await ctx.callTool!("read_file", JSON.stringify({ path: "a.txt" }))).content];
        for (const command of a.commands)
          out.push((await ctx.callTool!("terminal", JSON.stringify({ command }))).content);
        return out.join("\n");
      },
    }),
  );
  const menu = await selectMenu(registry, { platform: "t", config: { toolsets: { t: ["terminal"] } } });
  return new RegistryToolBox({
    registry,
    menu,
    policy: createApprovalPolicy({ mode: "manual", home: "/home/u" }),
    frontEnd: { approve: async () => opts.answer },
    events: new AgentEvents(),
  });
}

describe("inner tool calls", () => {
  it("each mutating inner call gets its own receipt under the outer one; reads get none", async () => {
    const ran: string[] = [];
    const c = call("c1", "batch", { commands: ["touch a", "touch b"] });
    const nodeId = await checkpoint(f, [c]);
    const result = await withReceipts(await batchBox({ answer: "once", ran }), f.store).run(
      c,
      ctxFor(f, nodeId),
    );
    expect(result.content).toBe("contents of a.txt\nran touch a\nran touch b");
    expect(ran).toEqual(["touch a", "touch b"]);
    const op = logicalOpId(f.sessionId, nodeId, 0);
    const effects = (await listAllEffects(f.store)).map((e) => [
      e.logicalOpId,
      e.status,
      e.argsFingerprint,
      e.result,
    ]);
    expect(effects).toEqual(
      expect.arrayContaining([
        [op, "completed", argsFingerprint(c.argumentsJson), { content: result.content, isError: false }],
        [
          `${op}#1`,
          "completed",
          argsFingerprint(JSON.stringify({ tool: "terminal", args: JSON.stringify({ command: "touch a" }) })),
          { content: "ran touch a", isError: false },
        ],
        [`${op}#2`, "completed", expect.any(String), { content: "ran touch b", isError: false }],
      ]),
    );
    expect(effects).toHaveLength(3);
  });

  it("an inner call the user denies runs nothing and leaves no receipt of its own", async () => {
    const ran: string[] = [];
    const c = call("c1", "batch", { commands: ["rm -rf /srv"] });
    const nodeId = await checkpoint(f, [c]);
    // The outer call needs no approval; the dangerous inner command is asked about and denied.
    const box = await batchBox({ answer: "deny", ran });
    const result = await withReceipts(box, f.store).run(c, ctxFor(f, nodeId));
    expect(result.content).toMatch(/not run|denied/);
    expect(ran).toEqual([]);
    expect((await listAllEffects(f.store)).filter((e) => e.logicalOpId.includes("#"))).toEqual([]);
  });

  it("after a kill mid-program, the resumed turn re-runs no inner side effect", async () => {
    const ran: string[] = [];
    const c = call("c1", "batch", { commands: ["deploy v1", "notify ops", "deploy v2"] });
    const nodeId = await checkpoint(f, [c]);
    const box = withReceipts(await batchBox({ answer: "once", ran, hangOn: "notify ops" }), f.store);
    void box.run(c, ctxFor(f, nodeId));
    await expect.poll(() => ran).toEqual(["deploy v1", "notify ops"]);
    // The process is gone: the store is reopened from its file, as the next start does.
    const path = f.store.db.name;
    await f.store.close();
    f.store = openStore(path);
    const op = logicalOpId(f.sessionId, nodeId, 0);
    const byOp = new Map((await listAllEffects(f.store)).map((e) => [e.logicalOpId, e.status]));
    expect(Object.fromEntries(byOp)).toEqual({
      [op]: "started",
      [`${op}#1`]: "completed",
      [`${op}#2`]: "started",
    });

    const resumedRan: string[] = [];
    const resumed = withReceipts(await batchBox({ answer: "once", ran: resumedRan }), f.store);
    const again = await resumed.run(c, ctxFor(f, nodeId));
    expect(again.content).toMatch(/effect_outcome_uncertain/);
    expect(resumedRan).toEqual([]);
  });
});
