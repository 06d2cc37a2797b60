// The ask protocol in an editor (SPEC T4): every approval request carries the id of the tool call
// it is about, so two parallel calls of one tool that both need approval get two permission
// dialogs keyed to their own calls, and each answer reaches its own call.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { defineTool, type ToolDefinition } from "@iris/tools";
import { afterEach, beforeEach, expect, it } from "vitest";
import { z } from "zod";
import { editor, ofKind } from "./harness.js";

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-acp-asks");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

const terminal = (command: string) => ({ name: "terminal", arguments: { command } });

/** A parallel-safe tool that always needs approval: its calls run (and ask) at the same time. */
const stamp = defineTool({
  name: "stamp",
  toolset: "file",
  description: "Stamps a label (test tool).",
  parameters: z.object({ label: z.string() }),
  effect: "write",
  parallelSafe: true,
  approvalRule: (args) => ({ key: "stamp", description: "stamp a label", subject: `stamp ${args.label}` }),
  execute: async (args) => JSON.stringify({ stamped: args.label }),
});

it("two calls of one tool asking at the same time get dialogs keyed to their own calls", async () => {
  let answer: () => void = () => {};
  const bothAsked = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const e = editor(fake, dir, {
    extraTools: [stamp as ToolDefinition],
    // Both dialogs are open at once before either is answered; only label "two" is allowed.
    permission: async (req) => {
      if (e.permissions.length === 2) answer();
      await bothAsked;
      const allow = JSON.stringify(req.toolCall.rawInput).includes("stamp two");
      return { outcome: { outcome: "selected", optionId: allow ? "allow_once" : "reject_once" } };
    },
  });
  fake.enqueue(
    {
      toolCalls: [
        { name: "stamp", arguments: { label: "one" } },
        { name: "stamp", arguments: { label: "two" } },
      ],
    },
    { text: "done" },
  );
  await e.run(async (ctx) => {
    const s = await ctx.buildSession(e.work).start();
    expect((await s.prompt("stamp both")).stopReason).toBe("end_turn");
    const calls = ofKind(e.updates, "tool_call");
    const callFor = (label: string) =>
      calls.find((c) => JSON.stringify(c.rawInput).includes(`"${label}"`))?.toolCallId;
    const askedFor = (label: string) =>
      e.permissions.find((p) => JSON.stringify(p.toolCall.rawInput).includes(`stamp ${label}`))?.toolCall
        .toolCallId;
    expect(e.permissions).toHaveLength(2);
    expect(askedFor("one")).toBe(callFor("one"));
    expect(askedFor("two")).toBe(callFor("two"));
    const final = (id: string | undefined) =>
      ofKind(e.updates, "tool_call_update")
        .filter((u) => u.toolCallId === id)
        .at(-1)?.status;
    expect(final(callFor("one"))).toBe("failed");
    expect(final(callFor("two"))).toBe("completed");
  });
});

it("two calls of one tool in one reply are asked about and answered by their own toolCallIds", async () => {
  const e = editor(fake, dir, {
    // Allows only the call that removes `b`: an answer keyed to the wrong call would show.
    permission: (req) => ({
      outcome: {
        outcome: "selected",
        optionId: JSON.stringify(req.toolCall.rawInput).includes("rm -rf b") ? "allow_once" : "reject_once",
      },
    }),
  });
  mkdirSync(join(e.work, "a"));
  mkdirSync(join(e.work, "b"));
  fake.enqueue({ toolCalls: [terminal("rm -rf a"), terminal("rm -rf b")] }, { text: "done" });
  await e.run(async (ctx) => {
    const s = await ctx.buildSession(e.work).start();
    expect((await s.prompt("clean both")).stopReason).toBe("end_turn");
    const calls = ofKind(e.updates, "tool_call");
    expect(calls).toHaveLength(2);
    expect(e.permissions).toHaveLength(2);
    const askedFor = (command: string) =>
      e.permissions.find((p) => JSON.stringify(p.toolCall.rawInput).includes(command))?.toolCall.toolCallId;
    const callFor = (command: string) =>
      calls.find((c) => JSON.stringify(c.rawInput).includes(command))?.toolCallId;
    expect(askedFor("rm -rf a")).toBe(callFor("rm -rf a"));
    expect(askedFor("rm -rf b")).toBe(callFor("rm -rf b"));
    expect(askedFor("rm -rf a")).not.toBe(askedFor("rm -rf b"));
    const final = (id: string | undefined) =>
      ofKind(e.updates, "tool_call_update")
        .filter((u) => u.toolCallId === id)
        .at(-1)?.status;
    expect(final(callFor("rm -rf a"))).toBe("failed");
    expect(final(callFor("rm -rf b"))).toBe("completed");
    expect(existsSync(join(e.work, "a"))).toBe(true);
    expect(existsSync(join(e.work, "b"))).toBe(false);
  });
});
