import { describe, expect, it } from "vitest";
import type { Runtime } from "../../runtime.js";
import type { AssistantMessage, LlmRequest, Message } from "../../types.js";
import { ZERO_USAGE } from "../../types.js";
import { buildAnthropicRequest } from "./build-request.js";
import { countBreakpoints } from "./cache.js";

const runtime: Runtime = {
  provider: "anthropic",
  apiMode: "anthropic_messages",
  baseUrl: "http://127.0.0.1:1/v1",
  model: "claude-sonnet-4-5",
  apiKey: "sk-ant-SECRET-456",
  headers: {},
  compat: { auth: "x-api-key", promptCache: true },
  source: { provider: "explicit", model: "explicit", baseUrl: "default", apiMode: "default", apiKey: "env" },
};

const thinking = { type: "thinking", thinking: "hmm", signature: "SIG==" };

const assistant: AssistantMessage = {
  role: "assistant",
  origin: { provider: "anthropic", apiMode: "anthropic_messages", model: "claude-sonnet-4-5" },
  usage: ZERO_USAGE,
  stopReason: "tool_calls",
  parts: [
    { type: "reasoning", text: "hmm", raw: thinking },
    { type: "text", text: "Checking." },
    {
      type: "toolCall",
      callId: "c1",
      name: "read",
      argumentsJson: '{"p":1}',
      providerIds: { callId: "toolu_1" },
    },
    { type: "toolCall", callId: "c2", name: "read", argumentsJson: "not json" },
  ],
};

const history: Message[] = [
  { role: "user", content: "hello", name: "ann" },
  { role: "user", content: "me too", name: "bob" },
  assistant,
  { role: "tool", callId: "c1", toolName: "read", content: "one", isError: false },
  { role: "tool", callId: "c2", toolName: "read", content: "boom", isError: true },
  {
    role: "user",
    content: [
      { type: "text", text: "and now?" },
      { type: "image", mediaType: "image/png", url: "https://x/y.png" },
    ],
  },
];

function build(over: Partial<LlmRequest> = {}) {
  return buildAnthropicRequest(runtime, {
    model: "claude-sonnet-4-5",
    system: "sys",
    messages: history,
    ...over,
  });
}

describe("anthropic request builder", () => {
  it("puts system on top, merges same-role turns and tool results into one user turn", () => {
    const { path, headers, body } = build();
    expect(path).toBe("/messages");
    expect(headers).toEqual({ "anthropic-version": "2023-06-01" });
    expect(body["system"]).toEqual([{ type: "text", text: "sys" }]);
    expect(body["max_tokens"]).toBe(8192);
    expect(body["messages"]).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "ann: hello" },
          { type: "text", text: "bob: me too" },
        ],
      },
      {
        role: "assistant",
        content: [
          thinking,
          { type: "text", text: "Checking." },
          { type: "tool_use", id: "toolu_1", name: "read", input: { p: 1 } },
          { type: "tool_use", id: "c2", name: "read", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "one" },
          { type: "tool_result", tool_use_id: "c2", content: "boom", is_error: true },
          { type: "text", text: "and now?" },
          { type: "image", source: { type: "url", url: "https://x/y.png" } },
        ],
      },
    ]);
    const roles = (body["messages"] as { role: string }[]).map((t) => t.role);
    for (let i = 1; i < roles.length; i++) expect(roles[i]).not.toBe(roles[i - 1]);
  });

  it("sends the thinking block back untouched (same object content, signature kept)", () => {
    const msgs = build().body["messages"] as { content: Record<string, unknown>[] }[];
    expect(msgs[1]?.content[0]).toEqual({ type: "thinking", thinking: "hmm", signature: "SIG==" });
  });

  it("drops reasoning from another format and base64 images become base64 sources", () => {
    const foreign: AssistantMessage = {
      ...assistant,
      origin: { provider: "openai", apiMode: "responses", model: "gpt-5" },
      parts: [
        { type: "reasoning", text: "r", raw: { type: "reasoning", id: "rs_1", encrypted_content: "E" } },
        { type: "text", text: "hi" },
      ],
    };
    const { body } = build({
      messages: [
        { role: "user", content: [{ type: "image", mediaType: "image/png", data: "AAA" }] },
        foreign,
      ],
    });
    expect(body["messages"]).toEqual([
      {
        role: "user",
        content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "AAA" } }],
      },
      { role: "assistant", content: [{ type: "text", text: "hi" }] },
    ]);
  });

  it("enables thinking with a budget, keeps max_tokens above it, and drops temperature", () => {
    const { body } = build({ reasoning: { budgetTokens: 4000 }, maxOutputTokens: 2000, temperature: 0.2 });
    expect(body["thinking"]).toEqual({ type: "enabled", budget_tokens: 4000 });
    expect(body["max_tokens"]).toBeGreaterThan(4000);
    expect(body["temperature"]).toBeUndefined();
  });

  it("maps tools and tool choice", () => {
    const { body } = build({
      tools: [{ name: "read", description: "Read", parameters: { type: "object" } }],
      toolChoice: "required",
    });
    expect(body["tools"]).toEqual([{ name: "read", description: "Read", input_schema: { type: "object" } }]);
    expect(body["tool_choice"]).toEqual({ type: "any" });
  });

  it("places cache breakpoints only when asked and the route allows it", () => {
    const tools = [{ name: "read", description: "Read", parameters: { type: "object" } }];
    expect(countBreakpoints(build({ tools }).body)).toBe(0);
    expect(
      countBreakpoints(
        buildAnthropicRequest(
          { ...runtime, compat: { auth: "x-api-key", promptCache: false } },
          { model: "m", system: "s", messages: history, cache: true },
        ).body,
      ),
    ).toBe(0);
    const { body } = build({ tools, cache: true });
    expect(countBreakpoints(body)).toBe(3); // system, tools, newest turn
    expect((body["system"] as Record<string, unknown>[])[0]).toHaveProperty("cache_control", {
      type: "ephemeral",
    });
    expect((body["tools"] as Record<string, unknown>[])[0]).toHaveProperty("cache_control", {
      type: "ephemeral",
    });
    // the raw thinking block in history is never marked or changed
    expect(thinking).toEqual({ type: "thinking", thinking: "hmm", signature: "SIG==" });
  });

  it("never puts the key in the body or the format headers", () => {
    const built = build({ cache: true });
    expect(JSON.stringify(built)).not.toContain("SECRET");
  });

  it("leaves thinking off for a tool loop whose assistant turn opened without it", () => {
    const loop: Message[] = [
      { role: "user", content: "go" },
      {
        role: "assistant",
        parts: [{ type: "toolCall", callId: "t1", name: "x", argumentsJson: "{}" }],
        origin: { provider: "openai", apiMode: "responses", model: "m" },
        usage: ZERO_USAGE,
        stopReason: "tool_calls",
      },
      { role: "tool", callId: "t1", toolName: "x", content: "ok", isError: false },
    ];
    const built = buildAnthropicRequest(runtime, {
      model: "m",
      messages: loop,
      reasoning: { budgetTokens: 2048 },
    });
    expect(built.body).not.toHaveProperty("thinking");
    const fresh = buildAnthropicRequest(runtime, {
      model: "m",
      messages: [{ role: "user", content: "go" }],
      reasoning: { budgetTokens: 2048 },
    });
    expect(fresh.body).toHaveProperty("thinking", { type: "enabled", budget_tokens: 2048 });
  });
});
