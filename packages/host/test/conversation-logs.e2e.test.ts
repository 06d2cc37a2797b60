// Conversation logs are ports: a host Session opened through IrisProcess on the store's
// log, on memory or on a JSONL file runs the same turn — a compression before its first call, a
// tool with an effect under a receipt, the reply — and each log ends up holding the same thing.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { JsonlConversation, SUMMARY_PREFIX } from "@iris/agent";
import { type AssistantMessage, type Message, ZERO_USAGE } from "@iris/llm";
import type { FakeLlm, RecordedRequest, Step, TempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HostEvent } from "../src/app/events.js";
import type { IrisProcess } from "../src/app/process.js";
import type { Session } from "../src/app/session.js";
import type { LogChoice } from "../src/app/session-log.js";
import { storeOf } from "../src/testing.js";
import { openProcess, textOf } from "./process.js";

const SUMMARY_MARK = "You compress the middle of a conversation";

let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess;
let work: string;

let close: () => Promise<void>;

beforeEach(async () => {
  ({ fake, dir, iris, close } = await openProcess(
    "iris-logs",
    ["model:", "  context_window: 60000", "compression:", "  protect_last_n: 2", ""].join("\n"),
  ));
  work = join(dir.path, "work");
  mkdirSync(work);
  fake.setHandler(reply);
});
afterEach(() => close());

type ChatMessage = { role: string; content?: unknown };

/** Summaries on request; else a write_file call first, then the tool's result repeated. */
function reply(req: RecordedRequest): Step {
  if (req.rawBody.toString("utf8").includes(SUMMARY_MARK))
    return { text: "SUMMARY: thirty questions answered." };
  const messages = (req.body as { messages: ChatMessage[] }).messages;
  const after = messages.slice(messages.map((m) => m.role).lastIndexOf("user") + 1);
  if (after.length === 0)
    return { toolCalls: [{ name: "write_file", arguments: { path: "made.txt", content: "written once" } }] };
  return { text: `RESULT ${textOf(after.at(-1))}` };
}

/** Thirty long questions and answers: far past the compression trigger of a 60k window. */
function longHistory(): Message[] {
  const origin = { provider: "custom", apiMode: "chat_completions" as const, model: "fake-model" };
  const messages: Message[] = [];
  for (let i = 0; i < 30; i++) {
    const answer: AssistantMessage = {
      role: "assistant",
      parts: [{ type: "text", text: `answer ${i}: ${"word ".repeat(2_000)}` }],
      origin,
      usage: { ...ZERO_USAGE },
      stopReason: "end",
    };
    messages.push({ role: "user", content: `question ${i}` }, answer);
  }
  return messages;
}

/** Opens a session on `log` holding the long history. */
async function openOn(kind: "store" | "memory" | "jsonl"): Promise<{ session: Session; jsonl?: string }> {
  const route = {
    provider: "custom",
    model: "fake-model",
    baseUrl: fake.baseUrl,
    apiMode: "chat_completions" as const,
  };
  const history = longHistory();
  const jsonl = join(dir.path, "trajectories", "one.jsonl");
  let log: LogChoice = { kind: "store" };
  if (kind === "memory") log = { kind: "memory", history };
  if (kind === "jsonl") {
    // An existing file is continued: the history was written by an earlier run.
    const earlier = new JsonlConversation(jsonl);
    for (const m of history) await earlier.append(m);
    log = { kind: "jsonl", path: jsonl };
  }
  const session = iris.openSession({ source: "test", cwd: work, route, log });
  await session.startSession();
  if (kind === "store")
    await storeOf(iris).appendNodes(
      session.id,
      history.map((message) => ({ kind: "message" as const, message })),
    );
  return { session, ...(kind === "jsonl" ? { jsonl } : {}) };
}

describe("a host Session on each conversation log", () => {
  for (const kind of ["store", "memory", "jsonl"] as const)
    it(`compresses, keeps receipts and shapes the same on the ${kind} log`, async () => {
      const { session, jsonl } = await openOn(kind);
      const seen: HostEvent[] = [];
      session.subscribe((e) => {
        seen.push(e);
        if (e.name === "approval_requested") session.answer(e.payload.requestId, "once");
      });
      const first = session.id;

      const result = await session.send("write the file");
      expect(result.reason, result.text).toBe("natural");
      expect(fake.violations).toEqual([]);

      // Compression split the conversation before the first call, as an explicit event.
      const splits = seen.filter((e) => e.name === "session_split").map((e) => e.payload);
      expect(splits).toEqual([{ from: first, to: session.id }]);
      expect(session.id).not.toBe(first);

      // The receipt gate found the checkpointed call in this log, so the tool ran, once.
      expect(readFileSync(join(work, "made.txt"), "utf8")).toBe("written once");
      expect(result.text).not.toMatch(/not executed/);
      expect(result.text).toMatch(/^RESULT /);

      // The history is the compacted one: the summary first (read as a user message), then the turn.
      const history = await session.history();
      expect(history[0]?.role).toBe("user");
      expect(textOf(history[0] as ChatMessage).startsWith(SUMMARY_PREFIX)).toBe(true);
      expect(history.map((m) => m.role).slice(-4)).toEqual(["user", "assistant", "tool", "assistant"]);
      expect(history.length).toBeLessThan(20);

      // Shaping: every call after the split went out alternating (the summary and the user's
      // message merged), with the rebuilt frozen prompt first.
      const calls = fake.requests.filter((r) => !r.rawBody.toString("utf8").includes(SUMMARY_MARK));
      expect(calls).toHaveLength(2);
      for (const r of calls) {
        const roles = (r.body as { messages: ChatMessage[] }).messages.map((m) => m.role);
        expect(roles[0]).toBe("system");
        expect(roles.slice(1, 3)).toEqual(["user", "assistant"]);
        expect(roles.length).toBeLessThan(20);
      }
      expect(session.session.systemPrompt).toBeTruthy();

      const stored = await storeOf(iris).listSessions({ limit: 10 });
      if (kind === "store") {
        // The old session ended, the child holds the history, the receipt is in state.db.
        expect(stored.map((s) => s.id).sort()).toEqual([first, session.id].sort());
        const effects = await storeOf(iris).listEffects();
        expect(effects.map((e) => [e.tool, e.status])).toEqual([["write_file", "completed"]]);
        // Every call is billed where it was made (F3): the summary call in the session it
        // summarised, the turn's two calls in the child.
        const summaries = fake.requests.length - calls.length;
        expect(summaries).toBeGreaterThan(0);
        expect(await storeOf(iris).usageForSession(first)).toHaveLength(summaries);
        expect(await storeOf(iris).usageForSession(session.id)).toHaveLength(calls.length);
        return;
      }
      // Nothing of a memory or JSONL conversation lands in state.db.
      expect(stored).toEqual([]);
      expect(await storeOf(iris).listEffects()).toEqual([]);
      if (kind !== "jsonl" || !jsonl) return;
      // The file holds the split, the receipt (begun, then completed) and the compacted history:
      // reopened, it reads as the session does, under the child's id, with its prompt.
      const lines = readFileSync(jsonl, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(lines.filter((l) => l.type === "split")).toEqual([
        { type: "split", from: first, to: session.id },
      ]);
      expect(lines.filter((l) => l.type === "effect").map((l) => [l.tool, l.status])).toEqual([
        ["write_file", "started"],
        ["write_file", "completed"],
      ]);
      const reopened = new JsonlConversation(jsonl);
      expect(reopened.sessionId).toBe(session.id);
      expect(await reopened.history()).toEqual(history);
      expect(reopened.systemPrompt).toBe(session.session.systemPrompt);
      expect(reopened.usage).toHaveLength(fake.requests.length);
    });

  it("keeps a subagent of a memory conversation in memory too: nothing lands in state.db", async () => {
    fake.setHandler((req) => {
      const messages = (req.body as { messages: ChatMessage[] }).messages;
      const lastUser = textOf(messages.findLast((m) => m.role === "user"));
      if (lastUser.startsWith("child goal")) return { text: "the child's answer" };
      const after = messages.slice(messages.map((m) => m.role).lastIndexOf("user") + 1);
      if (after.length === 0)
        return { toolCalls: [{ name: "delegate_task", arguments: { goal: "child goal: say hello" } }] };
      return { text: `RESULT ${textOf(after.at(-1))}` };
    });
    const session = iris.openSession({
      source: "test",
      cwd: work,
      route: { provider: "custom", model: "fake-model", baseUrl: fake.baseUrl, apiMode: "chat_completions" },
      log: { kind: "memory" },
    });
    await session.startSession();
    const result = await session.send("ask a child");
    expect(result.reason, result.text).toBe("natural");
    expect(result.text).toContain("the child's answer");
    expect(await storeOf(iris).listSessions({ limit: 10 })).toEqual([]);
    expect((await session.history()).map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  });

  it("counts a subagent's calls in a JSONL conversation's usage (batch rows read it)", async () => {
    fake.setHandler((req) => {
      const messages = (req.body as { messages: ChatMessage[] }).messages;
      if (textOf(messages.findLast((m) => m.role === "user")).startsWith("child goal"))
        return { text: "the child's answer" };
      const after = messages.slice(messages.map((m) => m.role).lastIndexOf("user") + 1);
      if (after.length === 0)
        return { toolCalls: [{ name: "delegate_task", arguments: { goal: "child goal: say hello" } }] };
      return { text: "done" };
    });
    const jsonl = join(dir.path, "trajectories", "child.jsonl");
    const session = iris.openSession({
      source: "test",
      cwd: work,
      route: { provider: "custom", model: "fake-model", baseUrl: fake.baseUrl, apiMode: "chat_completions" },
      log: { kind: "jsonl", path: jsonl },
    });
    await session.startSession();
    const result = await session.send("ask a child");
    expect(result.reason, result.text).toBe("natural");
    await session.close();
    expect(fake.requests).toHaveLength(3); // the parent's two calls and the child's one
    expect(new JsonlConversation(jsonl).usage).toHaveLength(3);
  });

  it("replays a JSONL trajectory's finished effect on resume instead of running it again", async () => {
    const { session, jsonl } = await openOn("jsonl");
    session.subscribe((e) => {
      if (e.name === "approval_requested") session.answer(e.payload.requestId, "once");
    });
    await session.send("write the file");
    await session.close();
    expect(jsonl && existsSync(jsonl)).toBe(true);
    // The same call again in the reopened trajectory: its receipt is in the file.
    const reopened = new JsonlConversation(jsonl as string);
    const effect = reopened.receipts.unfinished();
    expect(effect).toEqual([]);
    const lines = readFileSync(jsonl as string, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const done = lines.find((l) => l.type === "effect" && l.status === "completed");
    const begun = await reopened.receipts.beginEffect({
      sessionId: done.sessionId,
      logicalOpId: done.logicalOpId,
      step: done.step,
      tool: done.tool,
      argsFingerprint: done.argsFingerprint,
      nodeId: done.nodeId,
      callId: done.callId,
    });
    expect(begun.kind).toBe("replay");
  });
});
