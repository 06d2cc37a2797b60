import { describe, expect, it } from "vitest";
import type { Origin } from "../../types.js";
import { parseResponsesReply } from "./parse-response.js";

const origin: Origin = { provider: "openai", apiMode: "responses", model: "gpt-5" };

describe("responses non-streaming reply", () => {
  it("reads reasoning, text and function calls in output order", () => {
    const m = parseResponsesReply(
      {
        id: "resp_9",
        status: "completed",
        output: [
          { type: "reasoning", id: "rs_9", status: "completed", encrypted_content: "E", summary: [] },
          { type: "message", id: "msg_9", role: "assistant", content: [{ type: "output_text", text: "ok" }] },
          {
            type: "function_call",
            id: "fc_9",
            call_id: "call_9",
            name: "t",
            arguments: "{}",
            status: "completed",
          },
        ],
        usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 4 }, output_tokens: 3 },
      },
      origin,
    );
    expect("role" in m && m).toMatchObject({
      responseId: "resp_9",
      stopReason: "tool_calls",
      usage: { inputTokens: 10, cacheReadTokens: 4, outputTokens: 3 },
      parts: [
        { type: "reasoning", raw: { id: "rs_9", encrypted_content: "E" } },
        { type: "text", text: "ok" },
        { type: "toolCall", callId: "call_9", providerIds: { callId: "call_9", itemId: "fc_9" } },
      ],
    });
  });

  it("returns invalid_response for a body that is not a response or has no output", () => {
    expect(parseResponsesReply("nope", origin)).toMatchObject({ kind: "invalid_response" });
    expect(parseResponsesReply({ status: "completed", output: [] }, origin)).toMatchObject({
      kind: "invalid_response",
    });
  });

  it("classifies a failed response by its error code", () => {
    const e = parseResponsesReply(
      { status: "failed", error: { code: "context_length_exceeded", message: "too long" } },
      origin,
    );
    expect(e).toMatchObject({ kind: "context_overflow", retryable: false });
  });
});
