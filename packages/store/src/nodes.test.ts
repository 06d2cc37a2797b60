import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantMessage, Message, ToolResultMessage } from "@iris/llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StoreError } from "./errors.js";
import { openSqliteEngine as openStore, type SqliteEngine as Store } from "./store.js";

let dir: string;
let path: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-store-"));
  path = join(dir, "state.db");
  store = openStore(path);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const user = (text: string): Message => ({ role: "user", content: text });
const usage = {
  inputTokens: 120,
  outputTokens: 30,
  cacheReadTokens: 100,
  cacheWriteTokens: 0,
  reasoningTokens: 12,
};
const assistant = (text: string): AssistantMessage => ({
  role: "assistant",
  parts: [{ type: "text", text }],
  origin: { provider: "anthropic", apiMode: "anthropic_messages", model: "claude-x" },
  usage,
  stopReason: "end",
});
const textOfNode = (m: Message | null): string =>
  m?.role === "user" && typeof m.content === "string"
    ? m.content
    : m?.role === "assistant" && m.parts[0]?.type === "text"
      ? m.parts[0].text
      : "";

describe("the node tree", () => {
  it("appends after the active leaf and assembles the path root first", () => {
    const s = store.createSession({ source: "cli" });
    const a = store.appendNode(s.id, { kind: "message", message: user("one") });
    const b = store.appendNode(s.id, { kind: "message", message: assistant("two") });
    const c = store.appendNode(s.id, { kind: "message", message: user("three") });
    expect(a.parentId).toBeNull();
    expect(b.parentId).toBe(a.id);
    expect(c.parentId).toBe(b.id);
    expect(store.activeLeaf(s.id)?.id).toBe(c.id);
    expect(store.getSession(s.id).activeLeafId).toBe(c.id);
    const path = store.pathToRoot(c.id);
    expect(path.map((n) => textOfNode(n.message))).toEqual(["one", "two", "three"]);
    expect(store.activePath(s.id).map((n) => n.id)).toEqual([a.id, b.id, c.id]);
  });

  it("stores a round in one transaction as a chain and records origin and token counts", () => {
    const s = store.createSession({ source: "cli" });
    store.appendNode(s.id, { kind: "message", message: user("go") });
    const call: AssistantMessage = {
      ...assistant(""),
      parts: [
        { type: "toolCall", callId: "c1", name: "read", argumentsJson: '{"p":"a"}' },
        { type: "toolCall", callId: "c2", name: "read", argumentsJson: '{"p":"b"}' },
      ],
      stopReason: "tool_calls",
    };
    const result = (callId: string): ToolResultMessage => ({
      role: "tool",
      callId,
      toolName: "read",
      content: `content of ${callId}`,
      isError: false,
    });
    const round = store.appendNodes(s.id, [
      { kind: "message", message: call, tokens: 40 },
      { kind: "message", message: result("c1"), tokens: 5 },
      { kind: "message", message: result("c2"), tokens: 5 },
    ]);
    expect(round.map((n) => n.parentId)).toEqual([round[0]?.parentId, round[0]?.id, round[1]?.id]);
    const stored = store.getNode(round[0]?.id ?? "");
    expect(stored.origin).toEqual(call.origin);
    expect(stored.usage).toEqual(usage);
    expect(stored.tokens).toBe(40);
    expect(stored.role).toBe("assistant");
    expect(store.activeLeaf(s.id)?.id).toBe(round[2]?.id);
  });

  it("rolls back a whole round when one node is invalid", () => {
    const s = store.createSession({ source: "cli" });
    const first = store.appendNode(s.id, { kind: "message", message: user("go") });
    expect(() =>
      store.appendNodes(s.id, [
        { kind: "message", message: assistant("fine") },
        { kind: "message" }, // no message
      ]),
    ).toThrow(StoreError);
    expect(store.activePath(s.id).map((n) => n.id)).toEqual([first.id]);
    expect(store.listBranches(s.id)).toHaveLength(1);
  });

  it("keeps provider payloads byte for byte (reasoning raw items, provider call ids)", () => {
    const s = store.createSession({ source: "cli" });
    const message: AssistantMessage = {
      role: "assistant",
      parts: [
        {
          type: "reasoning",
          text: "thinking…",
          raw: {
            type: "reasoning",
            id: "rs_0a1b",
            encrypted_content: "gAAAAABo\u00e9\u0000==",
            summary: [{ type: "summary_text", text: "요약 🧠" }],
            nested: { n: 1.5, big: 12345678901234, neg: -3e-7, list: [null, true, "x"] },
          },
        },
        { type: "reasoning", text: "", raw: { type: "thinking", thinking: "t", signature: "EqQBCkYIBxgC…" } },
        {
          type: "toolCall",
          callId: "call_ours_1",
          name: "shell",
          argumentsJson: '{"cmd":"ls -la","weird":"\\u2028"}',
          providerIds: { callId: "call|fc_123", itemId: "fc_123" },
        },
      ],
      origin: { provider: "openai", apiMode: "responses", model: "gpt-x" },
      usage,
      stopReason: "tool_calls",
      responseId: "resp_1",
    };
    const node = store.appendNode(s.id, { kind: "message", message });
    store.close();
    store = openStore(path);
    const back = store.getNode(node.id).message;
    expect(JSON.stringify(back)).toBe(JSON.stringify(message));
    expect(back).toEqual(message);
    const raw = store.db.prepare<{ payload: string }>("SELECT payload FROM nodes WHERE id = ?").get(node.id);
    expect(raw?.payload).toBe(JSON.stringify(message));
  });

  it("hands back a copy of what was stored, untouched by later changes to the caller's object", () => {
    const s = store.createSession({ source: "cli" });
    const message = { role: "user" as const, content: "before" };
    const [row] = store.appendNodes(s.id, [{ kind: "message", message }]);
    message.content = "after";
    expect(row?.message).toEqual({ role: "user", content: "before" });
    expect(row?.message).toBe(row?.message); // parsed once
    expect(row).toEqual(store.getNode(row?.id ?? ""));
    expect(JSON.parse(JSON.stringify(row))).toEqual(store.getNode(row?.id ?? ""));
  });

  it("branches when an earlier user message is edited; the old branch stays readable", () => {
    const s = store.createSession({ source: "cli" });
    const q1 = store.appendNode(s.id, { kind: "message", message: user("q1") });
    store.appendNode(s.id, { kind: "message", message: assistant("a1") });
    const q2 = store.appendNode(s.id, { kind: "message", message: user("q2") });
    const oldTip = store.appendNode(s.id, { kind: "message", message: assistant("a2 old") });

    const edited = store.editUserMessage(q2.id, user("q2 edited"));
    expect(edited.parentId).toBe(q2.parentId);
    expect(store.activeLeaf(s.id)?.id).toBe(edited.id);
    const newTip = store.appendNode(s.id, { kind: "message", message: assistant("a2 new") });

    expect(store.activePath(s.id).map((n) => textOfNode(n.message))).toEqual([
      "q1",
      "a1",
      "q2 edited",
      "a2 new",
    ]);
    expect(store.pathToRoot(oldTip.id).map((n) => textOfNode(n.message))).toEqual([
      "q1",
      "a1",
      "q2",
      "a2 old",
    ]);
    expect(
      store
        .listBranches(s.id)
        .map((n) => n.id)
        .sort(),
    ).toEqual([oldTip.id, newTip.id].sort());

    // Editing the very first message makes a second root in the same session.
    const root2 = store.editUserMessage(q1.id, user("q1 again"));
    expect(root2.parentId).toBeNull();
    expect(store.listBranches(s.id)).toHaveLength(3);

    // Going back to the old branch and continuing there.
    store.branchFrom(oldTip.id);
    const cont = store.appendNode(s.id, { kind: "message", message: user("q3") });
    expect(cont.parentId).toBe(oldTip.id);
    expect(() => store.editUserMessage(oldTip.id, user("x"))).toThrow(/not a user message/);
  });

  it("refuses parents from another session and compactions with a parent", () => {
    const s1 = store.createSession({ source: "cli" });
    const s2 = store.createSession({ source: "cli" });
    const n1 = store.appendNode(s1.id, { kind: "message", message: user("x") });
    expect(() => store.appendNode(s2.id, { kind: "message", parentId: n1.id, message: user("y") })).toThrow(
      /belongs to session/,
    );
    expect(() => store.appendNode(s1.id, { kind: "compaction", parentId: n1.id, text: "sum" })).toThrow(
      /no parent/,
    );
    expect(() => store.setActiveLeaf(s2.id, n1.id)).toThrow(StoreError);
    expect(() => store.appendNode("nope", { kind: "message", message: user("z") })).toThrow(/no session/);
    expect(() => store.pathToRoot("missing")).toThrow(/no node/);
  });
});

describe("compaction nodes", () => {
  it("have no parent and expand to the path they summarised, recursively", async () => {
    const old = store.createSession({ source: "cli" });
    store.appendNode(old.id, { kind: "message", message: user("u1") });
    const a1 = store.appendNode(old.id, { kind: "message", message: assistant("a1") });
    // C4: the compressed context lives in a child session; the originals stay.
    const s = store.createSession({ source: "cli", parentSessionId: old.id });
    const c1 = store.appendNode(s.id, { kind: "compaction", text: "summary of u1 a1", expandsTo: a1.id });
    expect(c1.parentId).toBeNull();
    store.appendNode(s.id, { kind: "message", message: user("u2") });
    const a2 = store.appendNode(s.id, { kind: "message", message: assistant("a2") });
    const c2 = store.appendNode(s.id, {
      kind: "compaction",
      text: "summary of everything",
      expandsTo: a2.id,
    });
    const tail = store.appendNode(s.id, { kind: "message", message: user("u3") });

    expect(store.pathToRoot(tail.id).map((n) => n.id)).toEqual([c2.id, tail.id]);
    const one = await store.expandCompaction(c1.id);
    expect(one.stopped).toBeNull();
    expect(one.nodes.map((n) => textOfNode(n.message))).toEqual(["u1", "a1"]);
    const two = await store.expandCompaction(c2.id);
    expect(two.stopped).toBeNull();
    expect(two.nodes.map((n) => textOfNode(n.message))).toEqual(["u1", "a1", "u2", "a2"]);
    expect(() => store.expandCompaction(tail.id)).toThrow(/not a compaction/);
  });

  it("stop at a pointer cycle instead of looping", async () => {
    const s = store.createSession({ source: "cli" });
    const c1 = store.appendNode(s.id, { kind: "compaction", text: "first summary" });
    const u = store.appendNode(s.id, { kind: "message", message: user("after c1") });
    const c2 = store.appendNode(s.id, { kind: "compaction", text: "second summary", expandsTo: u.id });
    const v = store.appendNode(s.id, { kind: "message", message: user("after c2") });
    // Corrupt the first pointer so c1 → v (whose root is c2) → u (whose root is c1) → …
    store.db.prepare("UPDATE nodes SET expands_to = ? WHERE id = ?").run(v.id, c1.id);

    const fromC1 = await store.expandCompaction(c1.id);
    expect(fromC1.stopped).toBe("cycle");
    expect(fromC1.nodes.map((n) => n.id)).toEqual([c1.id, u.id, v.id]);
    const fromC2 = await store.expandCompaction(c2.id);
    expect(fromC2.stopped).toBe("cycle");

    // A compaction pointing at itself.
    store.db.prepare("UPDATE nodes SET expands_to = ? WHERE id = ?").run(c2.id, c2.id);
    expect((await store.expandCompaction(c2.id)).stopped).toBe("cycle");
  });
});
