import type { AssistantMessage, Message, ToolResultMessage } from "@iris/llm";
import { describe, expect, it } from "vitest";
import { computeContextBudget } from "./budget.js";
import { createDefaultContextEngine } from "./engine.js";
import { pruneToolOutputs } from "./prune.js";
import type { Summarizer } from "./summarise.js";
import { assistant, call, result, round, user, wordsOf } from "./test-support.js";
import { estimateMessagesTokens } from "./tokens.js";

describe("pruneToolOutputs", () => {
  it("replaces an old large output by one line saying what it was", () => {
    const messages: Message[] = [
      user("run the tests"),
      call("c1", "terminal", { command: "npm test" }),
      result("c1", "terminal", `${"x".repeat(48 * 1024)}\nexit code: 1`, true),
      assistant("they fail"),
      user("newest"),
    ];
    const out = pruneToolOutputs(messages, 4);
    const pruned = out.messages[2] as ToolResultMessage;
    expect(pruned.content).toBe('[tool output pruned: 48 KB from terminal "npm test", exit 1, 2 lines]');
    expect(pruned.callId).toBe("c1");
    expect(out.summarised).toBe(1);
    expect(messages[2]).not.toBe(pruned); // the input is not mutated
  });

  it("never touches the protected tail", () => {
    const big = wordsOf(500);
    const messages: Message[] = [
      user("a"),
      call("c1", "read_file", { path: "/x" }),
      result("c1", "read_file", big),
    ];
    const out = pruneToolOutputs(messages, 1);
    expect(out.messages).toEqual(messages);
  });

  it("keeps the newest copy of identical outputs and points the older ones at it", () => {
    const same = wordsOf(100);
    const messages: Message[] = [
      user("read twice"),
      call("c1", "read_file", { path: "/a" }),
      result("c1", "read_file", same),
      call("c2", "read_file", { path: "/a" }),
      result("c2", "read_file", same),
      user("newest"),
    ];
    const out = pruneToolOutputs(messages, 3, { minOutputChars: 100_000 });
    expect((out.messages[2] as ToolResultMessage).content).toBe(
      "[duplicate tool output: same as the later result of read_file call c2]",
    );
    expect(out.messages[4]).toBe(messages[4]);
    expect(out.deduplicated).toBe(1);
  });

  it("shortens long argument strings and keeps the arguments valid JSON", () => {
    const content = "한".repeat(3000);
    const messages: Message[] = [
      user("write it"),
      call("c1", "write_file", { path: "/a.txt", content, nested: { list: ["y".repeat(2000), 3] } }),
      result("c1", "write_file", "ok"),
      user("newest"),
    ];
    const out = pruneToolOutputs(messages, 3);
    const part = (out.messages[1] as AssistantMessage).parts[0];
    if (part?.type !== "toolCall") throw new Error("expected a tool call");
    expect(part.argumentsJson.length).toBeLessThan(1000);
    const args = JSON.parse(part.argumentsJson) as {
      path: string;
      content: string;
      nested: { list: [string, number] };
    };
    expect(args.path).toBe("/a.txt");
    expect(args.content).toMatch(/^한+…\[\d+ chars truncated\]$/);
    expect(args.nested.list[1]).toBe(3);
    expect(out.argumentsTruncated).toBe(1);
  });

  it("stubs arguments nested 20,000 deep without walking them (E4: no stack overflow)", () => {
    const deep = `{"command":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    const deepCall = call("c1", "terminal", {});
    const first = deepCall.parts[0];
    if (first?.type !== "toolCall") throw new Error("expected a tool call");
    deepCall.parts = [{ ...first, argumentsJson: deep }];
    const messages: Message[] = [
      user("go"),
      deepCall,
      result("c1", "terminal", "the arguments are refused: JSON nested deeper than 128 levels", true),
      user("newest"),
    ];
    const out = pruneToolOutputs(messages, 3);
    const part = (out.messages[1] as AssistantMessage).parts[0];
    if (part?.type !== "toolCall") throw new Error("expected a tool call");
    expect(JSON.parse(part.argumentsJson)).toEqual({ pruned: "arguments nested too deep, 40012 characters" });
    expect(out.argumentsTruncated).toBe(1);
  });
});

describe("phase 1 alone", () => {
  it("stops without a model call when pruning brings the history under the trigger", async () => {
    const messages: Message[] = [user("start"), assistant("ok"), user("go")];
    for (let i = 0; i < 12; i++) messages.push(...round(i, 2_000));
    messages.push(user("what now?"));
    const budget = computeContextBudget({ contextWindow: 32_000, protectLastN: 4 });
    const tokens = estimateMessagesTokens(messages);
    expect(tokens).toBeGreaterThan(budget.triggerTokens);
    let calls = 0;
    const summarizer: Summarizer = {
      contextWindow: 100_000,
      summarize: async () => {
        calls++;
        return { ok: true, text: "never used" };
      },
    };
    const engine = createDefaultContextEngine();
    const out = await engine.compress({ messages, budget, summarizer });
    if (!out.ok) throw new Error(out.reason);
    expect(out.phase).toBe(1);
    expect(calls).toBe(0);
    expect(out.after.tokens).toBeLessThan(budget.triggerTokens);
    expect(out.messages).toHaveLength(messages.length);
    expect(out.messages.at(-1)).toBe(messages.at(-1));
  });
});

describe("pruning images", () => {
  it("replaces images before the tail with a stub first, and keeps the tail's", () => {
    const image = { type: "image" as const, mediaType: "image/png", data: "A".repeat(4000) };
    const old: Message = { role: "user", content: [{ type: "text", text: "look" }, image] };
    const shot: Message = {
      role: "tool",
      callId: "c1",
      toolName: "browser_screenshot",
      content: [{ type: "text", text: "Screenshot" }, image],
      isError: false,
    };
    const recent: Message = { role: "user", content: [{ type: "text", text: "and this" }, image] };
    const out = pruneToolOutputs([old, shot, recent], 2);
    expect(out.imagesPruned).toBe(2);
    expect(out.messages[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "text", text: "[image pruned: image/png, 3 KB]" },
      ],
    });
    expect(JSON.stringify(out.messages[1])).toContain("[image pruned: image/png, 3 KB]");
    expect(out.messages[2]).toBe(recent);
  });
});
