import { describe, expect, it } from "vitest";
import type { Origin } from "../../types.js";
import { parseAnthropicReply } from "./parse-response.js";

const origin: Origin = { provider: "anthropic", apiMode: "anthropic_messages", model: "claude" };

describe("anthropic non-streaming reply", () => {
  it("reads thinking, text and tool_use blocks with usage totals", () => {
    const m = parseAnthropicReply(
      {
        id: "msg_1",
        type: "message",
        role: "assistant",
        content: [
          { type: "thinking", thinking: "t", signature: "S" },
          { type: "text", text: "hi" },
          { type: "tool_use", id: "toolu_1", name: "read", input: { p: 1 } },
        ],
        stop_reason: "tool_use",
        usage: {
          input_tokens: 5,
          cache_read_input_tokens: 100,
          cache_creation_input_tokens: 10,
          output_tokens: 7,
        },
      },
      origin,
    );
    expect(m).toMatchObject({
      responseId: "msg_1",
      stopReason: "tool_calls",
      usage: { inputTokens: 115, cacheReadTokens: 100, cacheWriteTokens: 10, outputTokens: 7 },
      parts: [
        { type: "reasoning", raw: { type: "thinking", thinking: "t", signature: "S" } },
        { type: "text", text: "hi" },
        { type: "toolCall", callId: "toolu_1", argumentsJson: '{"p":1}' },
      ],
    });
  });

  it("returns invalid_response for an empty or malformed reply and classifies an error body", () => {
    expect(parseAnthropicReply({ content: [], stop_reason: "end_turn" }, origin)).toMatchObject({
      kind: "invalid_response",
    });
    expect(parseAnthropicReply(42, origin)).toMatchObject({ kind: "invalid_response" });
    expect(
      parseAnthropicReply({ type: "error", error: { type: "overloaded_error", message: "x" } }, origin),
    ).toMatchObject({
      kind: "server",
    });
  });
});
