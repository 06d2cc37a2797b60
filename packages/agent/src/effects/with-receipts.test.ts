import { createApprovalPolicy, defineTool, selectMenu, ToolRegistry } from "@iris/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentEvents } from "../events.js";
import { RegistryToolBox } from "../tools/registry-toolbox.js";
import { findEffectByOp, listAllEffects } from "./lookup.js";
import { argsFingerprint, logicalOpId } from "./op-id.js";
import { call, checkpoint, countingBox, ctxFor, type Fixture, storeFixture } from "./test/support.js";
import { withReceipts } from "./with-receipts.js";

let f: Fixture;
beforeEach(async () => {
  f = await storeFixture();
});
afterEach(() => f.cleanup());

const ok = (content: string) => async () => ({ content, isError: false });

describe("withReceipts", () => {
  it("refuses a mutating call whose assistant node is not stored, without running it", async () => {
    const inner = countingBox(ok("ran"));
    const box = withReceipts(inner, f.store);
    const c = call("c1", "terminal", { command: "touch x" });
    const result = await box.run(c, ctxFor(f, "no-such-node"));
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/not executed: terminal .*not checkpointed/);
    expect(inner.runs).toEqual([]);
    expect(await listAllEffects(f.store)).toEqual([]);
  });

  it("begins the receipt against the checkpoint before the tool runs and completes it after", async () => {
    const c = call("c1", "terminal", { command: "touch x" });
    const nodeId = await checkpoint(f, [c]);
    let seenWhileRunning: Awaited<ReturnType<typeof f.store.listUnresolved>> = [];
    const inner = countingBox(async () => {
      seenWhileRunning = await f.store.listUnresolved(f.sessionId);
      return { content: "done", isError: false };
    });
    const result = await withReceipts(inner, f.store).run(c, ctxFor(f, nodeId, 7));
    expect(result).toEqual({ content: "done", isError: false });
    expect(seenWhileRunning).toHaveLength(1);
    expect(seenWhileRunning[0]).toMatchObject({
      status: "started",
      tool: "terminal",
      step: 7,
      nodeId,
      callId: "c1",
      logicalOpId: logicalOpId(f.sessionId, nodeId, 0),
      argsFingerprint: argsFingerprint(c.argumentsJson),
    });
    expect(await f.store.listUnresolved()).toEqual([]);
    const effect = await findEffectByOp(f.store, logicalOpId(f.sessionId, nodeId, 0));
    expect(effect?.status).toBe("completed");
    expect(effect?.result).toEqual({ content: "done", isError: false });
  });

  it("replays a completed operation instead of running the tool again", async () => {
    const c = call("c1", "send_message", { to: "ops", text: "deployed" });
    const nodeId = await checkpoint(f, [c]);
    let n = 0;
    const inner = countingBox(async () => ({ content: `sent #${++n}`, isError: false }));
    const box = withReceipts(inner, f.store);
    const first = await box.run(c, ctxFor(f, nodeId));
    const again = await box.run(c, ctxFor(f, nodeId));
    expect(first.content).toBe("sent #1");
    expect(again).toEqual(first);
    expect(inner.runs).toEqual(["c1"]);
  });

  it("keys operations by position in the stored message, so each call of a batch gets its own", async () => {
    const a = call("a", "terminal", { command: "one" });
    const b = call("b", "terminal", { command: "two" });
    const nodeId = await checkpoint(f, [a, b]);
    const box = withReceipts(
      countingBox(async (c) => ({ content: c.callId, isError: false })),
      f.store,
    );
    expect((await box.run(b, ctxFor(f, nodeId))).content).toBe("b");
    expect((await box.run(a, ctxFor(f, nodeId))).content).toBe("a");
    expect((await findEffectByOp(f.store, logicalOpId(f.sessionId, nodeId, 0)))?.callId).toBe("a");
    expect((await findEffectByOp(f.store, logicalOpId(f.sessionId, nodeId, 1)))?.callId).toBe("b");
  });

  it("runs read tools without any receipt", async () => {
    const c = call("r1", "read_file", { path: "a.txt" });
    const inner = countingBox(ok("text"));
    // Not even a stored checkpoint is needed for a read.
    const result = await withReceipts(inner, f.store).run(c, ctxFor(f, "not-stored"));
    expect(result.content).toBe("text");
    expect(inner.runs).toEqual(["r1"]);
    expect(await listAllEffects(f.store)).toEqual([]);
  });

  it("reports an unfinished receipt as effect_outcome_uncertain and never runs the tool", async () => {
    const c = call("c1", "terminal", { command: "rm -rf build" });
    const nodeId = await checkpoint(f, [c]);
    const begun = await f.store.beginEffect({
      sessionId: f.sessionId,
      logicalOpId: logicalOpId(f.sessionId, nodeId, 0),
      step: 3,
      tool: "terminal",
      argsFingerprint: argsFingerprint(c.argumentsJson),
      nodeId,
      callId: "c1",
    });
    expect(begun.kind).toBe("started");
    const inner = countingBox(ok("ran"));
    const result = await withReceipts(inner, f.store).run(c, ctxFor(f, nodeId, 3));
    expect(result.isError).toBe(true);
    expect(result.content).toContain("effect_outcome_uncertain");
    expect(result.content).toContain(begun.effect.id);
    expect(inner.runs).toEqual([]);
  });

  it("records a thrown tool as failed and replays the failure", async () => {
    const c = call("c1", "terminal", { command: "boom" });
    const nodeId = await checkpoint(f, [c]);
    const inner = countingBox(async () => {
      throw new Error("exploded");
    });
    const box = withReceipts(inner, f.store);
    await expect(box.run(c, ctxFor(f, nodeId))).rejects.toThrow("exploded");
    const replay = await box.run(c, ctxFor(f, nodeId));
    expect(replay.isError).toBe(true);
    expect(replay.content).toContain("exploded");
    expect(inner.runs).toHaveLength(1);
    expect((await findEffectByOp(f.store, logicalOpId(f.sessionId, nodeId, 0)))?.status).toBe("failed");
  });
});

describe("argsFingerprint", () => {
  it("ignores key order and whitespace but not values", () => {
    expect(argsFingerprint('{"a":1,"b":[1,{"y":2,"x":1}]}')).toBe(
      argsFingerprint('{ "b": [1, {"x":1, "y":2}], "a": 1 }'),
    );
    expect(argsFingerprint('{"a":1}')).not.toBe(argsFingerprint('{"a":2}'));
    expect(argsFingerprint("not json")).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe("withReceipts when a person settles the receipt while the tool runs", () => {
  it("still returns the tool's result and keeps the person's decision", async () => {
    const c = call("c1", "terminal", { command: "slow" });
    const nodeId = await checkpoint(f, [c]);
    const inner = countingBox(async () => {
      const [open] = await f.store.listUnresolved(f.sessionId);
      if (open) await f.store.resolveEffect(open.id, "applied", "saw it happen");
      return { content: "finished", isError: false };
    });
    const result = await withReceipts(inner, f.store).run(c, ctxFor(f, nodeId));
    expect(result.content).toBe("finished");
    expect(await findEffectByOp(f.store, logicalOpId(f.sessionId, nodeId, 0))).toMatchObject({
      status: "applied",
      evidence: "saw it happen",
    });
  });
});

describe("receipts through the real dispatcher", () => {
  async function registryBox(answer: "deny" | "once", ran: string[]) {
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
          ran.push(a.command);
          return "ok";
        },
      }),
    );
    const menu = await selectMenu(registry, { platform: "t", config: { toolsets: { t: ["terminal"] } } });
    return new RegistryToolBox({
      registry,
      menu,
      policy: createApprovalPolicy({ mode: "manual", home: "/home/u" }),
      frontEnd: { approve: async () => answer },
      events: new AgentEvents(),
    });
  }

  it("a call the user denies leaves no receipt; an approved one is begun after approval", async () => {
    const ran: string[] = [];
    const c = call("c1", "terminal", { command: "rm -rf build/" });
    const nodeId = await checkpoint(f, [c]);
    const denied = await withReceipts(await registryBox("deny", ran), f.store).run(c, ctxFor(f, nodeId));
    expect(denied.content).toMatch(/not run/);
    expect(await listAllEffects(f.store)).toEqual([]);
    const approved = await withReceipts(await registryBox("once", ran), f.store).run(c, ctxFor(f, nodeId));
    expect(approved).toEqual({ content: "ok", isError: false });
    expect(ran).toEqual(["rm -rf build/"]);
    expect((await listAllEffects(f.store)).map((e) => e.status)).toEqual(["completed"]);
  });

  async function abortBox(execute: (signal: AbortSignal) => Promise<string>) {
    const registry = new ToolRegistry({ logger: { warn: () => {} } });
    registry.register(
      defineTool({
        name: "terminal",
        toolset: "terminal",
        description: "Runs a command.",
        parameters: z.object({ command: z.string() }),
        effect: "mutate",
        execute: async (_a, ctx) => execute(ctx.signal),
      }),
    );
    const menu = await selectMenu(registry, { platform: "t", config: { toolsets: { t: ["terminal"] } } });
    return new RegistryToolBox({
      registry,
      menu,
      policy: createApprovalPolicy({ mode: "off" }),
      frontEnd: {},
      events: new AgentEvents(),
      dispatch: { abortGraceMs: 50 },
    });
  }

  it("an aborted tool that ignores its signal leaves its receipt open (uncertain), never completed", async () => {
    const c = call("c1", "terminal", { command: "sleep 1000" });
    const nodeId = await checkpoint(f, [c]);
    let started!: () => void;
    const running = new Promise<void>((r) => {
      started = r;
    });
    const box = await abortBox(() => {
      started();
      return new Promise<string>(() => {}); // blocks for good, deaf to the signal
    });
    const controller = new AbortController();
    const pending = withReceipts(box, f.store).run(c, { ...ctxFor(f, nodeId), signal: controller.signal });
    await running;
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ isError: true, uncertain: true });
    expect(result.content).toContain("whether it took effect is unknown");
    expect((await f.store.listUnresolved(f.sessionId)).map((e) => e.status)).toEqual(["started"]);
  });

  it("an aborted tool that honours its signal within the grace period is settled with its own result", async () => {
    const c = call("c1", "terminal", { command: "sleep 1000" });
    const nodeId = await checkpoint(f, [c]);
    const box = await abortBox(
      (signal) =>
        new Promise<string>((resolve) => {
          signal.addEventListener("abort", () => resolve("killed by the abort; nothing was written"));
        }),
    );
    const controller = new AbortController();
    const pending = withReceipts(box, f.store).run(c, { ...ctxFor(f, nodeId), signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    const result = await pending;
    expect(result.content).toBe("killed by the abort; nothing was written");
    expect((await listAllEffects(f.store)).map((e) => e.status)).toEqual(["completed"]);
  });
});
