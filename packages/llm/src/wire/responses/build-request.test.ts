import { describe, expect, it } from "vitest";
import type { Runtime } from "../../runtime.js";
import type { AssistantMessage, LlmRequest, Message } from "../../types.js";
import { ZERO_USAGE } from "../../types.js";
import { ITEM_FIELDS } from "./allowlist.js";
import { buildResponsesRequest } from "./build-request.js";

const runtime: Runtime = {
  provider: "openai",
  apiMode: "responses",
  baseUrl: "http://127.0.0.1:1/v1",
  model: "gpt-5",
  apiKey: "sk-test-SECRET-123",
  headers: {},
  compat: { auth: "bearer" },
  source: { provider: "explicit", model: "explicit", baseUrl: "default", apiMode: "default", apiKey: "env" },
};

const fromResponses: AssistantMessage = {
  role: "assistant",
  origin: { provider: "openai", apiMode: "responses", model: "gpt-5" },
  usage: ZERO_USAGE,
  stopReason: "tool_calls",
  parts: [
    {
      type: "reasoning",
      text: "thinking",
      raw: {
        type: "reasoning",
        id: "rs_1",
        status: "completed",
        encrypted_content: "ENC",
        summary: [{ type: "summary_text", text: "thinking", extra: 1 }],
      },
    },
    { type: "text", text: "Let me look." },
    {
      type: "toolCall",
      callId: "call_1",
      name: "read_file",
      argumentsJson: '{"path":"a"}',
      providerIds: { callId: "call_1", itemId: "fc_1" },
    },
  ],
};

const history: Message[] = [
  { role: "user", content: "hi", name: "ann" },
  fromResponses,
  { role: "tool", callId: "call_1", toolName: "read_file", content: "file body", isError: false },
  {
    role: "user",
    content: [
      { type: "text", text: "and this" },
      { type: "image", mediaType: "image/png", data: "AAA" },
    ],
  },
];

function build(over: Partial<LlmRequest> = {}) {
  return buildResponsesRequest(runtime, { model: "gpt-5", system: "be brief", messages: history, ...over });
}

describe("responses request builder", () => {
  it("puts the system prompt in instructions and history in input, stateless", () => {
    const { path, body, headers } = build();
    expect(path).toBe("/responses");
    expect(headers).toEqual({});
    expect(body["instructions"]).toBe("be brief");
    expect(body["store"]).toBe(false);
    expect(body["stream"]).toBe(true);
    expect(body["input"]).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "ann: hi" }] },
      {
        type: "reasoning",
        id: "rs_1",
        summary: [{ type: "summary_text", text: "thinking" }],
        encrypted_content: "ENC",
      },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Let me look." }] },
      { type: "function_call", id: "fc_1", call_id: "call_1", name: "read_file", arguments: '{"path":"a"}' },
      { type: "function_call_output", call_id: "call_1", output: "file body" },
      {
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "and this" },
          { type: "input_image", image_url: "data:image/png;base64,AAA" },
        ],
      },
    ]);
  });

  it("sends only allowlisted fields for every item (never status)", () => {
    const input = build().body["input"] as Record<string, unknown>[];
    for (const item of input) {
      const allowed = ITEM_FIELDS[String(item["type"])];
      expect(allowed).toBeDefined();
      for (const key of Object.keys(item)) expect(allowed).toContain(key);
    }
    expect(JSON.stringify(input)).not.toContain('"status"');
  });

  it("drops reasoning that did not come from the Responses API", () => {
    const foreign: AssistantMessage = {
      ...fromResponses,
      origin: { provider: "anthropic", apiMode: "anthropic_messages", model: "claude" },
      parts: [
        { type: "reasoning", text: "x", raw: { type: "thinking", thinking: "x", signature: "s" } },
        {
          type: "toolCall",
          callId: "toolu_1",
          name: "t",
          argumentsJson: "{}",
          providerIds: { callId: "toolu_1" },
        },
      ],
    };
    const input = build({
      messages: [
        { role: "user", content: "q" },
        foreign,
        { role: "tool", callId: "toolu_1", toolName: "t", content: "ok", isError: false },
      ],
    }).body["input"] as Record<string, unknown>[];
    expect(input.map((i) => i["type"])).toEqual(["message", "function_call", "function_call_output"]);
    expect(input[1]).toEqual({ type: "function_call", call_id: "toolu_1", name: "t", arguments: "{}" });
    expect(input[2]).toMatchObject({ call_id: "toolu_1" });
  });

  it("drops a Responses reasoning item that lacks encrypted_content (store:false cannot resolve its id)", () => {
    const bare: AssistantMessage = {
      ...fromResponses,
      stopReason: "end",
      parts: [
        { type: "reasoning", text: "", raw: { type: "reasoning", id: "rs_2", summary: [] } },
        { type: "text", text: "ok" },
      ],
    };
    const input = build({ messages: [{ role: "user", content: "q" }, bare] }).body["input"] as Record<
      string,
      unknown
    >[];
    expect(input.map((i) => i["type"])).toEqual(["message", "message"]);
  });

  it("declares tools non-strict and asks for encrypted reasoning when reasoning is requested", () => {
    const { body } = build({
      tools: [{ name: "read_file", description: "Read", parameters: { type: "object", properties: {} } }],
      toolChoice: { name: "read_file" },
      maxOutputTokens: 500,
      reasoning: { effort: "high" },
      stream: false,
    });
    expect(body["tools"]).toEqual([
      {
        type: "function",
        name: "read_file",
        description: "Read",
        parameters: { type: "object", properties: {} },
        strict: false,
      },
    ]);
    expect(body["tool_choice"]).toEqual({ type: "function", name: "read_file" });
    expect(body["max_output_tokens"]).toBe(500);
    expect(body["reasoning"]).toEqual({ effort: "high", summary: "auto" });
    expect(body["include"]).toEqual(["reasoning.encrypted_content"]);
    expect(body["stream"]).toBe(false);
  });

  it("omits include when reasoning is not requested, and never puts the key in the body", () => {
    const { body, headers } = build();
    expect(body["include"]).toBeUndefined();
    expect(JSON.stringify({ body, headers })).not.toContain("SECRET");
  });
});
