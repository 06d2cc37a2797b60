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
});
