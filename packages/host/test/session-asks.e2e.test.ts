// The one ask protocol: a session's question goes out as an event with a request id and
// the tool call's id, is answered by Session.answer, and is withdrawn with `ask_withdrawn` (same
// request id) when the session stops waiting: the approval policy's timeout, or a stopped turn.
// Front ends (ACP, the terminal, chats) take their dialogs down on that event.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm, TempDir } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { HostEvent } from "../src/app/events.js";
import type { IrisProcess } from "../src/app/process.js";
import { openProcess, startSession } from "./process.js";

let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess;
let close: () => Promise<void>;

beforeEach(async () => {
  ({ fake, dir, iris, close } = await openProcess("iris-asks", "approvals: {timeout_seconds: 1}\n"));
});
afterEach(() => close());

const work = () => join(dir.path, "work");

/** Resolves with the first event `pick` takes. */
function next<T>(events: HostEvent[], pick: (e: HostEvent) => T | undefined): Promise<T> {
  return new Promise((resolve) => {
    const look = () => {
      for (const e of events) {
        const hit = pick(e);
        if (hit !== undefined) return resolve(hit);
      }
      setTimeout(look, 10);
    };
    look();
  });
}

it("a clarify request carries its tool call's id", async () => {
  const session = await startSession(iris, fake, work());
  const seen: HostEvent[] = [];
  session.subscribe((e) => {
    seen.push(e);
    if (e.name === "clarify_requested") session.answer(e.payload.requestId, "blue");
  });
  fake.enqueue(
    { toolCalls: [{ name: "clarify", arguments: { question: "Which colour?" } }] },
    { text: "ok" },
  );
  await session.send("ask me");
  const asked = seen.find((e) => e.name === "clarify_requested");
  const started = seen.find((e) => e.name === "tool_exec_started");
  expect(asked?.name === "clarify_requested" && asked.payload.callId).toBeTruthy();
  expect(started?.name === "tool_exec_started" && started.payload.callId).toBe(
    asked?.name === "clarify_requested" && asked.payload.callId,
  );
  expect(seen.some((e) => e.name === "ask_withdrawn")).toBe(false);
});

it("an approval nobody answers in time is withdrawn by its request id, and a late answer is refused", async () => {
  mkdirSync(join(work(), "junk"), { recursive: true });
  const session = await startSession(iris, fake, work());
  const seen: HostEvent[] = [];
  session.subscribe((e) => seen.push(e));
  fake.enqueue(
    { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf junk" } }] },
    { text: "left" },
  );
  const result = await session.send("clean");
  expect(result.text).toBe("left");
  const asked = seen.find((e) => e.name === "approval_requested");
  if (asked?.name !== "approval_requested") throw new Error("no approval_requested event");
  expect(asked.payload.request.callId).toBeTruthy();
  const withdrawn = seen.filter((e) => e.name === "ask_withdrawn");
  expect(withdrawn.map((e) => e.payload)).toEqual([
    { requestId: asked.payload.requestId, reason: "timeout" },
  ]);
  expect(session.answer(asked.payload.requestId, "once")).toBe(false);
  expect(existsSync(join(work(), "junk"))).toBe(true);
});

it("a stopped turn withdraws the question it waits on", async () => {
  mkdirSync(join(work(), "junk"), { recursive: true });
  const session = await startSession(iris, fake, work());
  const seen: HostEvent[] = [];
  session.subscribe((e) => seen.push(e));
  fake.enqueue(
    { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf junk" } }] },
    { text: "left" },
  );
  const stop = new AbortController();
  const running = session.send("clean", { signal: stop.signal });
  const requestId = await next(seen, (e) =>
    e.name === "approval_requested" ? e.payload.requestId : undefined,
  );
  stop.abort();
  expect((await running).reason).toBe("user_cancelled");
  expect(seen.filter((e) => e.name === "ask_withdrawn").map((e) => e.payload)).toEqual([
    { requestId, reason: "cancelled" },
  ]);
  expect(existsSync(join(work(), "junk"))).toBe(true);
});
