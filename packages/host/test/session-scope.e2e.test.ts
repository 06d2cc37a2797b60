// What one session holds stays in it (ARCHITECTURE.md "Process scope and session scope"): an
// approval remembered "for this session", its background processes and its pending questions.
// Questions go out as tagged events and come back through answerApproval / answerClarify.
import { join } from "node:path";
import type { FakeLlm, RecordedRequest, Step, TempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HostEvent } from "../src/app/events.js";
import type { IrisProcess } from "../src/app/process.js";
import type { Session } from "../src/app/session.js";
import { openProcess, startSession, textOf } from "./process.js";

let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess;

let close: () => Promise<void>;

beforeEach(async () => {
  ({ fake, dir, iris, close } = await openProcess("iris-scope"));
  fake.setHandler(reply);
});
afterEach(() => close());

type ChatMessage = { role: string; content?: unknown };

/** The user's text is `CALL <json>`: the model calls that tool once, then repeats its result. */
function reply(req: RecordedRequest): Step {
  const messages = (req.body as { messages: ChatMessage[] }).messages;
  const lastUser = messages.map((m) => m.role).lastIndexOf("user");
  const after = messages.slice(lastUser + 1);
  // A subagent's goal: answer in plain text.
  if (textOf(messages[lastUser]).startsWith("child goal")) return { text: "the child's answer" };
  if (after.length === 0) {
    const call = JSON.parse(textOf(messages[lastUser]).replace(/^CALL /, "")) as {
      name: string;
      arguments: unknown;
    };
    return { toolCalls: [call] };
  }
  return { text: `RESULT ${textOf(after.at(-1))}` };
}
const call = (name: string, args: unknown) => `CALL ${JSON.stringify({ name, arguments: args })}`;

function open(): Promise<Session> {
  return startSession(iris, fake, join(dir.path, "work"));
}

/** Answers every approval question of `s` with `answer`, and records them. */
function answering(s: Session, answer: "once" | "session" | "deny"): HostEvent[] {
  const asked: HostEvent[] = [];
  s.subscribe((e) => {
    if (e.name !== "approval_requested") return;
    asked.push(e);
    s.answer(e.payload.requestId, answer);
  });
  return asked;
}

const PIPE = call("terminal", { command: "echo 'echo piped-ok' | sh" });

describe("session scope", () => {
  it("an approval remembered for one session is asked again in another", async () => {
    const a = await open();
    const b = await open();
    const askedA = answering(a, "session");
    const first = await a.send(PIPE);
    expect(first.text).toContain("piped-ok");
    expect(askedA).toHaveLength(1);
    expect(askedA[0]?.sessionId).toBe(a.id);
    expect(askedA[0]?.taskId).toMatch(/^task_/);
    // Remembered in a: not asked again.
    expect((await a.send(PIPE)).text).toContain("piped-ok");
    expect(askedA).toHaveLength(1);
    // Not in b: asked, denied, not run.
    const askedB = answering(b, "deny");
    const denied = await b.send(PIPE);
    expect(askedB).toHaveLength(1);
    expect(denied.text).not.toContain("piped-ok");
    expect(denied.text).toMatch(/denied|approval/i);
  });

  it("a session sees and kills only its own background processes; closing it leaves the other running", async () => {
    const a = await open();
    const b = await open();
    const started = await a.send(call("terminal", { command: "sleep 60", background: true }));
    const pid = Number(/pid (\d+)/.exec(started.text)?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(() => process.kill(pid, 0)).not.toThrow();
    expect((await b.send(call("process", { action: "list" }))).text).toContain("No background processes.");
    expect((await a.send(call("process", { action: "list" }))).text).toMatch(/proc_1 running/);

    await a.close();
    expect(a.isClosed).toBe(true);
    expect(() => process.kill(pid, 0)).toThrow();
    await expect(a.send("hello")).rejects.toThrow(/closed/);
    // b is untouched by a's close.
    expect((await b.send(call("process", { action: "list" }))).text).toContain("No background processes.");
    expect(iris.openSessions).toBe(1);
  });

  it("a question nobody answers is denied when the session closes, and the turn ends", async () => {
    const a = await open();
    const asked: HostEvent[] = [];
    a.subscribe((e) => {
      if (e.name === "approval_requested") {
        asked.push(e);
        void a.close();
      }
    });
    const result = await a.send(PIPE);
    expect(asked).toHaveLength(1);
    expect(result.text).not.toContain("piped-ok");
    expect(a.answer("approval_1", "once")).toBe(false);
  });

  it("a subagent's progress reaches the parent session tagged with the child's task", async () => {
    const a = await open();
    const events: HostEvent[] = [];
    a.subscribe((e) => events.push(e));
    const processWide: HostEvent[] = [];
    const off = iris.subscribe((e) => processWide.push(e));
    const result = await a.send(call("delegate_task", { goal: "child goal: say hello" }));
    off();
    expect(result.text).toContain("the child's answer");
    const parentTask = events.find((e) => e.name === "tool_exec_started")?.taskId;
    expect(parentTask).toMatch(/^task_/);
    const child = events.filter((e) => e.parentTaskId !== undefined);
    expect(child.length).toBeGreaterThan(0);
    for (const e of child) {
      expect(e.parentTaskId).toBe(parentTask);
      expect(e.taskId).not.toBe(parentTask);
      expect(e.sessionId).toBe(a.id);
    }
    const names = new Set(child.map((e) => e.name));
    expect(names.has("stream_delta")).toBe(true);
    expect(names.has("turn_completed")).toBe(true);
    expect(
      child
        .filter((e) => e.name === "stream_delta")
        .map((e) => e.payload.text)
        .join(""),
    ).toBe("the child's answer");
    // Process-wide subscribers see the same tagged events.
    expect(processWide.filter((e) => e.parentTaskId === parentTask)).toHaveLength(child.length);
  });

  it("a task's working directory ends with its turn; the session keeps none", async () => {
    const a = await open();
    const moved = await a.send(call("terminal", { command: "mkdir -p sub && cd sub && pwd" }));
    expect(moved.text).toMatch(/sub/);
    expect(a.workspace.cwds.size).toBe(0);
    // The next turn starts in the session's folder again.
    const where = await a.send(call("terminal", { command: "pwd" }));
    expect(where.text).not.toMatch(/\/sub\b/);
  });

  it("clarify questions go out as events and the answer comes back", async () => {
    const a = await open();
    a.subscribe((e) => {
      if (e.name === "clarify_requested")
        a.answer(e.payload.requestId, `blue (asked: ${e.payload.question})`);
    });
    const result = await a.send(call("clarify", { question: "Which colour?" }));
    expect(result.text).toContain("blue (asked: Which colour?)");
  });

  it("inject and interrupt reach the running turn only", async () => {
    const a = await open();
    expect(a.inject("later")).toBe(false);
    expect(a.interrupt()).toBe(false);
    fake.setHandler(() => ({ fault: "stall" }));
    const running = a.send("hang");
    expect(a.busy).toBe(true);
    await expect(a.send("second")).rejects.toThrow(/already running/);
    expect(a.interrupt()).toBe(true);
    expect((await running).reason).toBe("user_cancelled");
  });
});
