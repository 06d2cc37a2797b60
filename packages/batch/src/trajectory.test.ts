import type { AssistantMessage, Message } from "@iris/llm";
import { describe, expect, it } from "vitest";
import { toShareGpt, trajectoryRowSchema } from "./trajectory.js";

const origin = { provider: "p", apiMode: "chat_completions" as const, model: "m" };
const usage = {
  inputTokens: 1,
  outputTokens: 1,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
};
const assistant = (parts: AssistantMessage["parts"]): AssistantMessage => ({
  role: "assistant",
  parts,
  origin,
  usage,
  stopReason: "end",
});

const history: Message[] = [
  { role: "user", content: "list and read" },
  assistant([
    { type: "reasoning", text: "two tools" },
    { type: "text", text: "Looking." },
    { type: "toolCall", callId: "c1", name: "terminal", argumentsJson: '{"command":"ls"}' },
    { type: "toolCall", callId: "c2", name: "read_file", argumentsJson: "{broken" },
  ]),
  { role: "tool", callId: "c1", toolName: "terminal", content: '{"exit":0,"out":"a.txt"}', isError: false },
  { role: "tool", callId: "c2", toolName: "read_file", content: "bad arguments", isError: true },
  assistant([{ type: "text", text: "Done." }]),
];

describe("trajectory rows", () => {
  it("maps a tool-using turn to ShareGPT turns, tool calls and per-tool stats", () => {
    const c = toShareGpt("SYS", history);
    expect(c.conversations.map((t) => t.from)).toEqual(["system", "human", "gpt", "tool", "gpt"]);
    expect(c.conversations[2]?.value).toBe(
      '<think>\ntwo tools\n</think>\nLooking.\n<tool_call>\n{"name":"terminal","arguments":{"command":"ls"}}\n</tool_call>\n' +
        '<tool_call>\n{"name":"read_file","arguments":"{broken"}\n</tool_call>',
    );
    // The results of one assistant turn are one tool turn; JSON content is kept as data.
    expect(c.conversations[3]?.value).toBe(
      '<tool_response>\n{"tool_call_id":"c1","name":"terminal","content":{"exit":0,"out":"a.txt"}}\n</tool_response>\n' +
        '<tool_response>\n{"tool_call_id":"c2","name":"read_file","content":"bad arguments"}\n</tool_response>',
    );
    expect(c.toolCalls).toEqual([
      { id: "c1", name: "terminal", arguments: { command: "ls" }, is_error: false },
      { id: "c2", name: "read_file", arguments: "{broken", is_error: true },
    ]);
    expect(c.toolStats).toEqual({
      terminal: { count: 1, success: 1, failure: 0 },
      read_file: { count: 1, success: 0, failure: 1 },
    });
  });

  it("round-trips a row through JSON and the schema unchanged, and rejects a wrong one", () => {
    const c = toShareGpt("SYS", history);
    const row = {
      id: "q1",
      key: "q1",
      status: "completed" as const,
      termination_reason: "natural",
      conversations: c.conversations,
      tool_calls: c.toolCalls,
      tool_stats: c.toolStats,
      usage: {
        input_tokens: 2,
        output_tokens: 2,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        reasoning_tokens: 0,
      },
      cost_usd: 0.001,
      api_calls: 2,
      rounds: 2,
      duration_ms: 12,
      model: "p/m",
      metadata: { topic: "files" },
    };
    const back = trajectoryRowSchema.parse(JSON.parse(JSON.stringify(row)));
    expect(back).toEqual(row);
    expect(trajectoryRowSchema.safeParse({ ...row, status: "ok" }).success).toBe(false);
    expect(
      trajectoryRowSchema.safeParse({ ...row, conversations: [{ from: "user", value: "x" }] }).success,
    ).toBe(false);
    const { key: _key, ...noKey } = row;
    expect(trajectoryRowSchema.safeParse(noKey).success).toBe(false);
  });
});
