// The ask protocol in an editor (SPEC T4): every approval request carries the id of the tool call
// it is about, so two parallel calls of one tool that both need approval get two permission
// dialogs keyed to their own calls, and each answer reaches its own call.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { HostEvent } from "@iris/host";
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
  effect: "mutate",
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

/** The session's ask events of the editor's process, as they happen. */
async function askEvents(e: ReturnType<typeof editor>): Promise<HostEvent[]> {
  const seen: HostEvent[] = [];
  (await e.iris).subscribe((ev) => {
    if (ev.name === "approval_requested" || ev.name === "clarify_requested" || ev.name === "ask_withdrawn")
      seen.push(ev);
  });
  return seen;
}

it("a dialog the approval policy times out is withdrawn: the session's ask_withdrawn names its request", async () => {
  let withdrawn: unknown;
  const e = editor(fake, dir, {
    config: "approvals: {timeout_seconds: 1}\n",
    // Never answers: only Iris's timeout ends the dialog.
    permission: (_req, signal) =>
      new Promise((resolve) => {
        signal.addEventListener("abort", () => {
          withdrawn = true;
          resolve({ outcome: { outcome: "cancelled" } });
        });
      }),
  });
  const seen = await askEvents(e);
  mkdirSync(join(e.work, "junk"));
  fake.enqueue({ toolCalls: [terminal("rm -rf junk")] }, { text: "not removed" });
  await e.run(async (ctx) => {
    const s = await ctx.buildSession(e.work).start();
    expect((await s.prompt("clean")).stopReason).toBe("end_turn");
    // The dialog was asked from the session's event, keyed to the call the event names.
    const asked = seen.find((ev) => ev.name === "approval_requested");
    if (asked?.name !== "approval_requested") throw new Error("the session asked no approval_requested");
    expect(e.permissions.map((p) => p.toolCall.toolCallId)).toEqual([asked.payload.request.callId]);
    expect(seen.filter((ev) => ev.name === "ask_withdrawn").map((ev) => ev.payload)).toEqual([
      { requestId: asked.payload.requestId, reason: "timeout" },
    ]);
    await waitFor(() => withdrawn === true);
    expect(existsSync(join(e.work, "junk"))).toBe(true);
  });
});

it("a clarify choice dialog is keyed to the clarify call its request names, and answered by id", async () => {
  const e = editor(fake, dir, {
    permission: () => ({ outcome: { outcome: "selected", optionId: "choice_1" } }),
  });
  const seen = await askEvents(e);
  fake.enqueue(
    {
      toolCalls: [{ name: "clarify", arguments: { question: "Indent with?", choices: ["spaces", "tabs"] } }],
    },
    { text: "ok" },
  );
  await e.run(async (ctx) => {
    const s = await ctx.buildSession(e.work).start();
    expect((await s.prompt("ask")).stopReason).toBe("end_turn");
    const asked = seen.find((ev) => ev.name === "clarify_requested");
    if (asked?.name !== "clarify_requested") throw new Error("the session asked no clarify_requested");
    const calls = ofKind(e.updates, "tool_call");
    expect(calls).toHaveLength(1);
    expect(asked.payload.callId).toBe(calls[0]?.toolCallId);
    expect(e.permissions.map((p) => p.toolCall.toolCallId)).toEqual([asked.payload.callId]);
    // The editor's pick reached the model as the call's result.
    const body = fake.requests.at(-1)?.body as
      | { messages: { role: string; content?: unknown }[] }
      | undefined;
    expect(JSON.stringify(body?.messages.find((m) => m.role === "tool")?.content)).toContain("tabs");
  });
});

async function waitFor(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 10));
}
