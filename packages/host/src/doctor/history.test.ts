import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { messagesOfPath } from "@iris/agent";
import { type AssistantMessage, type Message, sanitizeHistory, ZERO_USAGE } from "@iris/llm";
import { openStore, type Store, shortId } from "@iris/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkHistory } from "./history.js";
import { planRepair } from "./repair.js";

let root: string;
let dbPath: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "iris-doctor-hist-"));
  dbPath = join(root, "state.db");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const origin = { provider: "custom", apiMode: "chat_completions" as const, model: "m" };
const user = (text: string): Message => ({ role: "user", content: text });
const reply = (text: string): AssistantMessage => ({
  role: "assistant",
  parts: [{ type: "text", text }],
  origin,
  usage: ZERO_USAGE,
  stopReason: "end",
});
const calling = (...ids: string[]): AssistantMessage => ({
  role: "assistant",
  parts: ids.map((id) => ({ type: "toolCall" as const, callId: id, name: "terminal", argumentsJson: "{}" })),
  origin,
  usage: ZERO_USAGE,
  stopReason: "tool_calls",
});
const result = (id: string): Message => ({
  role: "tool",
  callId: id,
  toolName: "terminal",
  content: "ok",
  isError: false,
});

async function withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore(dbPath);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

function sessionWith(messages: Message[]): Promise<string> {
  return withStore(async (store) => {
    const s = await store.createSession({ source: "cli" });
    await store.appendNodes(
      s.id,
      messages.map((message) => ({ kind: "message" as const, message })),
    );
    return s.id;
  });
}

describe("checkHistory", () => {
  it("reports nothing for whole histories", async () => {
    await sessionWith([user("hi"), calling("c1"), result("c1"), reply("done")]);
    expect(await checkHistory(dbPath, false)).toMatchObject([
      { status: "ok", message: "1 session, none broken" },
    ]);
  });

  it("finds a call without its result and offers --repair", async () => {
    const id = await sessionWith([
      user("hi"),
      calling("c1", "c2"),
      result("c1"),
      user("and?"),
      reply("done"),
    ]);
    const [f] = await checkHistory(dbPath, false);
    expect(f).toMatchObject({ status: "fail", subject: `session ${shortId(id)}` });
    expect(f!.details).toEqual(["tool call c2 (terminal) without a result"]);
    expect(f!.fix).toMatch(/^iris doctor --repair/);
  });

  it("--repair appends a repaired branch, keeps every old node, and the check then passes", async () => {
    const id = await sessionWith([
      user("hi"),
      calling("c1", "c2"),
      result("c1"),
      user("and?"),
      reply("done"),
    ]);
    const before = await withStore((s) => s.activePath(id));
    const [f] = await checkHistory(dbPath, true);
    expect(f).toMatchObject({ status: "ok" });
    expect(f!.message).toMatch(/repaired: 3 messages appended/);

    await withStore(async (store) => {
      const path = await store.activePath(id);
      // The branch starts below the first result; the old nodes are untouched and still there.
      expect(path.slice(0, 3).map((n) => n.id)).toEqual(before.slice(0, 3).map((n) => n.id));
      for (const old of before) expect((await store.getNode(old.id)).message).toEqual(old.message);
      const messages = messagesOfPath(path);
      expect(sanitizeHistory(messages).removed).toEqual([]);
      const added = messages[3];
      expect(added).toMatchObject({ role: "tool", callId: "c2", isError: true });
      expect(added?.role === "tool" && added.notExecuted).toBeTruthy();
      expect(messages.slice(4)).toEqual([user("and?"), reply("done")]);
      expect(await store.listBranches(id)).toHaveLength(2);
    });
    expect(await checkHistory(dbPath, false)).toMatchObject([{ status: "ok" }]);
  });

  it("a call with an unfinished side-effect receipt gets effect_outcome_uncertain, never 'not executed'", async () => {
    const id = await sessionWith([user("send it"), calling("c1")]);
    await withStore(async (store) => {
      const node = (await store.activeLeaf(id))!;
      await store.beginEffect({
        sessionId: id,
        logicalOpId: "op-1",
        step: 1,
        tool: "terminal",
        argsFingerprint: "x",
        nodeId: node.id,
        callId: "c1",
      });
    });
    await checkHistory(dbPath, true);
    const last = await withStore(async (s) => messagesOfPath(await s.activePath(id)).at(-1));
    expect(last).toMatchObject({ role: "tool", callId: "c1", isError: true });
    expect(last?.role === "tool" && String(last.content)).toContain("effect_outcome_uncertain");
    expect(last?.role === "tool" && last.notExecuted).toBeFalsy();
  });
});

describe("planRepair", () => {
  const stored = (ms: Message[]) => ms.map((message, i) => ({ nodeId: `n${i}`, message }));
  const none = () => undefined;

  it("is undefined for a whole history", () => {
    expect(planRepair(stored([user("a"), calling("c"), result("c"), reply("b")]), none)).toBeUndefined();
  });

  it("drops a stray result by continuing from the node before it", () => {
    const plan = planRepair(stored([user("a"), reply("b"), result("zz"), user("c")]), none)!;
    expect(plan.parentId).toBe("n1");
    expect(plan.append).toEqual([user("c")]);
    expect(plan.actions).toEqual(["drop tool result zz (terminal) without its call"]);
  });

  it("drops reasoning left at the end of a reply and an empty user message", () => {
    const thinking: AssistantMessage = { ...reply("x"), parts: [{ type: "reasoning", text: "hmm" }] };
    const plan = planRepair(stored([user("a"), user(""), thinking]), none)!;
    expect(plan.parentId).toBe("n0");
    expect(plan.append).toEqual([]);
  });
});

describe("the role order of stored histories (H1)", () => {
  it("an interleaved history (user, user, assistant, …) fails; an unanswered last message warns", async () => {
    const store = openStore(dbPath);
    const interleaved = await store.createSession({ source: "cli" });
    await store.appendNodes(
      interleaved.id,
      [user("one"), user("two"), user("three"), reply("a"), reply("b")].map((message) => ({
        kind: "message" as const,
        message,
      })),
    );
    const unanswered = await store.createSession({ source: "cli" });
    await store.appendNodes(
      unanswered.id,
      [user("q"), reply("a"), user("no answer yet")].map((message) => ({
        kind: "message" as const,
        message,
      })),
    );
    await store.close();
    const findings = await checkHistory(dbPath, false);
    // (Both ids share their first 8 characters: time-ordered UUIDs made in the same millisecond.)
    const bad = findings.find((f) => f.status === "fail");
    expect(bad?.message).toContain("user messages follow each other");
    expect(bad?.details).toEqual([
      "message 2 follows another user message",
      "message 3 follows another user message",
    ]);
    const warn = findings.find((f) => f.status === "warn");
    expect(warn?.message).toContain("ends with a user message that got no answer");
    expect(warn?.subject).toBe(`session ${shortId(unanswered.id)}`);
  });
});
