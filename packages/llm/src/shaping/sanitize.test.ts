import { describe, expect, it } from "vitest";
import type { AssistantMessage, Message } from "../types.js";
import { ZERO_USAGE } from "../types.js";
import { sanitizeHistory } from "./sanitize.js";

const origin = { provider: "p", apiMode: "chat_completions" as const, model: "m" };
const asst = (parts: AssistantMessage["parts"]): AssistantMessage => ({
  role: "assistant",
  parts,
  origin,
  usage: ZERO_USAGE,
  stopReason: parts.some((p) => p.type === "toolCall") ? "tool_calls" : "end",
});
const call = (id: string) => ({ type: "toolCall" as const, callId: id, name: "t", argumentsJson: "{}" });
const result = (id: string): Message => ({
  role: "tool",
  callId: id,
  toolName: "t",
  content: "ok",
  isError: false,
});

describe("sanitizeHistory", () => {
  it("keeps a well-formed history unchanged", () => {
    const h: Message[] = [
      { role: "user", content: "hi" },
      asst([call("a"), call("b")]),
      result("a"),
      result("b"),
      asst([{ type: "text", text: "done" }]),
    ];
    const r = sanitizeHistory(h);
    expect(r.removed).toEqual([]);
    expect(r.messages).toEqual(h);
  });

  it("removes calls without results, results without calls, and reports each", () => {
    const h: Message[] = [
      { role: "user", content: "hi" },
      asst([{ type: "text", text: "x" }, call("a"), call("b")]),
      result("a"),
      result("zzz"),
      { role: "user", content: "again" },
    ];
    const r = sanitizeHistory(h);
    expect(r.messages).toHaveLength(4);
    expect((r.messages[1] as AssistantMessage).parts.map((p) => p.type)).toEqual(["text", "toolCall"]);
    expect(r.removed.join("\n")).toMatch(/call b .*without a result/);
    expect(r.removed.join("\n")).toMatch(/result zzz .*without its call/);
  });

  it("merges consecutive user messages with speaker names", () => {
    const r = sanitizeHistory([
      { role: "user", content: "one", name: "ann" },
      { role: "user", content: "two", name: "bob" },
    ]);
    expect(r.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "ann: one" },
          { type: "text", text: "bob: two" },
        ],
      },
    ]);
  });

  it("drops an assistant message left with only reasoning", () => {
    const r = sanitizeHistory([
      { role: "user", content: "q" },
      asst([{ type: "reasoning", text: "hmm" }, call("a")]),
      { role: "user", content: "q2" },
    ]);
    expect(r.messages.map((m) => m.role)).toEqual(["user"]);
    expect(r.removed).toContain("reasoning without a following item");
  });

  it("cuts reasoning left at the end of a message once its call is gone, and reports it", () => {
    const kept = { type: "reasoning" as const, text: "first" };
    const r = sanitizeHistory([
      { role: "user", content: "q" },
      asst([kept, { type: "text", text: "answer" }, { type: "reasoning", text: "then" }, call("a")]),
      { role: "user", content: "q2" },
    ]);
    expect((r.messages[1] as AssistantMessage).parts).toEqual([kept, { type: "text", text: "answer" }]);
    expect(r.removed).toEqual(["tool call a (t) without a result", "reasoning without a following item"]);
  });

  it("removes calls and results with empty ids even when they would pair", () => {
    const r = sanitizeHistory([{ role: "user", content: "q" }, asst([call("")]), result("")]);
    expect(r.messages.map((m) => m.role)).toEqual(["user"]);
    expect(r.removed.join("\n")).toMatch(/tool call with an empty id/);
    expect(r.removed.join("\n")).toMatch(/tool result with an empty call id/);
  });

  it("merges consecutive assistant messages and drops empty ones", () => {
    const r = sanitizeHistory([
      { role: "user", content: "q" },
      asst([{ type: "text", text: "part one" }]),
      asst([{ type: "text", text: "" }]),
      asst([{ type: "text", text: "part two" }, call("a")]),
      result("a"),
      { role: "user", content: [] },
    ]);
    expect(r.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect((r.messages[1] as AssistantMessage).parts.map((p) => p.type)).toEqual([
      "text",
      "text",
      "toolCall",
    ]);
    expect(r.removed).toEqual(["empty assistant message", "empty user message"]);
  });

  it("leaves a well-formed message as the same object", () => {
    const m = asst([{ type: "reasoning", text: "r" }, call("a")]);
    const r = sanitizeHistory([{ role: "user", content: "q" }, m, result("a")]);
    expect(r.messages[1]).toBe(m);
  });

  it("merging keeps the origin of the message that carries reasoning", () => {
    const other = { provider: "q", apiMode: "responses" as const, model: "n" };
    const thinking = asst([
      { type: "reasoning", text: "r" },
      { type: "text", text: "a" },
    ]);
    const plain = { ...asst([{ type: "text", text: "b" }]), origin: other };
    const r1 = sanitizeHistory([{ role: "user", content: "q" }, thinking, plain]);
    expect((r1.messages[1] as AssistantMessage).origin).toEqual(origin);
    const r2 = sanitizeHistory([{ role: "user", content: "q" }, plain, thinking]);
    expect((r2.messages[1] as AssistantMessage).origin).toEqual(origin);
    // Both carry reasoning from different routes: the earlier reasoning cannot stay.
    const otherThinking = { ...thinking, origin: other };
    const r3 = sanitizeHistory([{ role: "user", content: "q" }, thinking, otherThinking]);
    expect((r3.messages[1] as AssistantMessage).parts.map((p) => p.type)).toEqual([
      "text",
      "reasoning",
      "text",
    ]);
    expect(r3.removed).toEqual(["1 reasoning part(s) of p merged into a later message"]);
  });
});
