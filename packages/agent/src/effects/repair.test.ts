import type { Message } from "@iris/llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messagesOfPath } from "../session/store-conversation.js";
import { argsFingerprint, logicalOpId } from "./op-id.js";
import { repairInterruptedCalls } from "./repair.js";
import { call, checkpoint, type Fixture, storeFixture } from "./test/support.js";

let f: Fixture;
beforeEach(async () => {
  f = await storeFixture();
});
afterEach(() => f.cleanup());

const history = async (): Promise<Message[]> => messagesOfPath(await f.store.activePath(f.sessionId));
const toolResults = async () => (await history()).filter((m) => m.role === "tool");

async function begin(nodeId: string, index: number, c: ReturnType<typeof call>) {
  const begun = await f.store.beginEffect({
    sessionId: f.sessionId,
    logicalOpId: logicalOpId(f.sessionId, nodeId, index),
    step: 1,
    tool: c.name,
    argsFingerprint: argsFingerprint(c.argumentsJson),
    nodeId,
    callId: c.callId,
  });
  if (begun.kind !== "started") throw new Error(`expected a fresh receipt, got ${begun.kind}`);
  return begun.effect;
}

describe("repairInterruptedCalls", () => {
  it("closes a started receipt as uncertain and a call without receipt as not executed, in call order", async () => {
    const done = call("c0", "read_file", { path: "a" });
    const running = call("c1", "terminal", { command: "deploy" });
    const never = call("c2", "write_file", { path: "b", content: "x" });
    const nodeId = await checkpoint(f, [done, running, never]);
    await f.store.appendNode(f.sessionId, {
      kind: "message",
      message: { role: "tool", callId: "c0", toolName: "read_file", content: "A", isError: false },
    });
    const effect = await begin(nodeId, 1, running);

    const { repaired } = await repairInterruptedCalls(f.store, f.sessionId);
    expect(repaired.map((r) => [r.callId, r.outcome])).toEqual([
      ["c1", "uncertain"],
      ["c2", "not_executed"],
    ]);
    expect(repaired[0]?.effectId).toBe(effect.id);
    const results = await toolResults();
    expect(results.map((m) => m.role === "tool" && m.callId)).toEqual(["c0", "c1", "c2"]);
    const [, uncertain, notRun] = results;
    expect(uncertain).toMatchObject({ isError: true });
    expect(JSON.stringify(uncertain)).toContain("effect_outcome_uncertain");
    expect(JSON.stringify(uncertain)).toContain(`iris effects resolve ${effect.id}`);
    expect(notRun).toMatchObject({ isError: true, notExecuted: "the process stopped before it ran" });
    // The receipt itself stays unresolved until a person settles it.
    expect((await f.store.listUnresolved(f.sessionId)).map((e) => e.id)).toEqual([effect.id]);
    // Idempotent: a second resume finds nothing left open.
    expect((await repairInterruptedCalls(f.store, f.sessionId)).repaired).toEqual([]);
    expect(await toolResults()).toHaveLength(3);
  });

  it("restores the stored result of a receipt that completed before its result was stored", async () => {
    const c = call("c1", "terminal", { command: "make" });
    const nodeId = await checkpoint(f, [c]);
    await f.store.completeEffect((await begin(nodeId, 0, c)).id, { content: "built ok", isError: false });
    const { repaired } = await repairInterruptedCalls(f.store, f.sessionId);
    expect(repaired.map((r) => r.outcome)).toEqual(["replayed"]);
    expect(await toolResults()).toEqual([
      { role: "tool", callId: "c1", toolName: "terminal", content: "built ok", isError: false },
    ]);
  });

  it("leaves a complete history alone, and gaps that are not at the tail to send-time sanitation", async () => {
    const c = call("c1", "terminal", { command: "x" });
    await checkpoint(f, [c]);
    await f.store.appendNode(f.sessionId, { kind: "message", message: { role: "user", content: "later" } });
    expect((await repairInterruptedCalls(f.store, f.sessionId)).repaired).toEqual([]);
    expect(await toolResults()).toEqual([]);
  });
});
