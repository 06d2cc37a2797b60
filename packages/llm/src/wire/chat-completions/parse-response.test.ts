import { describe, expect, it } from "vitest";
import type { Origin } from "../../types.js";
import { parseChatResponse } from "./parse-response.js";

const origin: Origin = { provider: "openai", apiMode: "chat_completions", model: "gpt-test" };

describe("parseChatResponse", () => {
  it("reads text, reasoning, tool calls and usage", () => {
    const m = parseChatResponse(
      {
        id: "chatcmpl-1",
        object: "chat.completion",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: "Checking.",
              reasoning_content: "plan",
              tool_calls: [
                { id: "call_1", type: "function", function: { name: "read", arguments: '{"p":1}' } },
              ],
            },
            finish_reason: "tool_calls",
          },
        ],
        usage: {
          prompt_tokens: 50,
          completion_tokens: 10,
          prompt_tokens_details: { cached_tokens: 32 },
          completion_tokens_details: { reasoning_tokens: 4 },
        },
      },
      origin,
    );
    expect(m).toEqual({
      role: "assistant",
      origin,
      responseId: "chatcmpl-1",
      stopReason: "tool_calls",
      parts: [
        { type: "reasoning", text: "plan" },
        { type: "text", text: "Checking." },
        {
          type: "toolCall",
          callId: "call_1",
          name: "read",
          argumentsJson: '{"p":1}',
          providerIds: { callId: "call_1" },
        },
      ],
      usage: {
        inputTokens: 50,
        outputTokens: 10,
        cacheReadTokens: 32,
        cacheWriteTokens: 0,
        reasoningTokens: 4,
      },
    });
  });

  it("maps length and refusal", () => {
    const cut = parseChatResponse(
      { choices: [{ message: { content: "abc" }, finish_reason: "length" }] },
      origin,
    );
    expect("role" in cut && cut.stopReason).toBe("max_tokens");
    const no = parseChatResponse(
      { choices: [{ message: { content: null, refusal: "No." }, finish_reason: "stop" }] },
      origin,
    );
    expect("role" in no && [no.stopReason, no.refusal]).toEqual(["refusal", "No."]);
  });

  it("rejects a reply without choices or with the wrong shape", () => {
    const none = parseChatResponse({ id: "x", choices: [] }, origin);
    expect("kind" in none && none.kind).toBe("invalid_response");
    const bad = parseChatResponse({ choices: "nope" }, origin);
    expect("kind" in bad && bad.kind).toBe("invalid_response");
  });
});
