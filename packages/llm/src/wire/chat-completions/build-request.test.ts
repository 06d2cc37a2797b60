import { describe, expect, it } from "vitest";
import type { ProviderCompat, Runtime } from "../../runtime.js";
import type { AssistantMessage, LlmRequest } from "../../types.js";
import { ZERO_USAGE } from "../../types.js";
import { buildChatRequest } from "./build-request.js";

function runtime(compat: Partial<ProviderCompat> = {}): Runtime {
  return {
    provider: "test",
    apiMode: "chat_completions",
    baseUrl: "http://127.0.0.1:1/v1",
    model: "m",
    apiKey: "sk-test",
    headers: {},
    compat: { auth: "bearer", ...compat },
    source: {
      provider: "explicit",
      model: "explicit",
      baseUrl: "explicit",
      apiMode: "default",
      apiKey: "env",
    },
  };
}

const assistant: AssistantMessage = {
  role: "assistant",
  origin: { provider: "test", apiMode: "chat_completions", model: "m" },
  usage: ZERO_USAGE,
  stopReason: "tool_calls",
  parts: [
    { type: "reasoning", text: "think" },
    { type: "text", text: "Let me " },
    { type: "text", text: "look." },
    {
      type: "toolCall",
      callId: "ours-1",
      name: "read",
      argumentsJson: '{"p":1}',
      providerIds: { callId: "call_abc" },
    },
    { type: "toolCall", callId: "ours-2", name: "list", argumentsJson: "{}" },
  ],
};

const request: LlmRequest = {
  model: "gpt-x",
  system: "be brief",
  messages: [
    {
      role: "user",
      name: "alice",
      content: [
        { type: "text", text: "what is this?" },
        { type: "image", mediaType: "image/png", data: "iVBOR" },
        { type: "image", mediaType: "image/jpeg", url: "https://example.com/a.jpg" },
      ],
    },
    assistant,
    { role: "tool", callId: "ours-1", toolName: "read", content: "file body", isError: false },
    {
      role: "tool",
      callId: "ours-2",
      toolName: "list",
      content: [{ type: "text", text: "a b" }],
      isError: false,
    },
  ],
  tools: [{ name: "read", description: "Read a file", parameters: { type: "object", properties: {} } }],
  toolChoice: { name: "read" },
  maxOutputTokens: 100,
  temperature: 0.2,
};

describe("buildChatRequest", () => {
  it("converts the canonical history", () => {
    const built = buildChatRequest(runtime(), request);
    expect(built.path).toBe("/chat/completions");
    expect(built.headers).toEqual({});
    expect(built.body.messages).toEqual([
      { role: "system", content: "be brief" },
      {
        role: "user",
        name: "alice",
        content: [
          { type: "text", text: "alice: what is this?" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBOR" } },
          { type: "image_url", image_url: { url: "https://example.com/a.jpg" } },
        ],
      },
      {
        role: "assistant",
        content: "Let me look.",
        tool_calls: [
          { id: "call_abc", type: "function", function: { name: "read", arguments: '{"p":1}' } },
          { id: "ours-2", type: "function", function: { name: "list", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "call_abc", content: "file body" },
      { role: "tool", tool_call_id: "ours-2", content: "a b" },
    ]);
    expect(built.body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "read",
          description: "Read a file",
          parameters: { type: "object", properties: {} },
        },
      },
    ]);
    expect(built.body.tool_choice).toEqual({ type: "function", function: { name: "read" } });
    expect(built.body.max_tokens).toBe(100);
    expect(built.body.temperature).toBe(0.2);
    expect(built.body.stream).toBe(true);
    expect(built.body.stream_options).toEqual({ include_usage: true });
  });

  it("follows the compat flags", () => {
    const built = buildChatRequest(
      runtime({
        maxTokensField: "max_completion_tokens",
        streamUsage: false,
        reasoningContent: true,
        tools: false,
      }),
      request,
    );
    expect(built.body.max_completion_tokens).toBe(100);
    expect(built.body).not.toHaveProperty("max_tokens");
    expect(built.body).not.toHaveProperty("stream_options");
    expect(built.body).not.toHaveProperty("tools");
    const wireAssistant = (built.body.messages as Record<string, unknown>[])[2];
    expect(wireAssistant?.reasoning_content).toBe("think");
  });

  it("sends no stream_options without streaming, and null content for a call-only turn", () => {
    const callOnly: AssistantMessage = { ...assistant, parts: [assistant.parts[3]!] };
    const built = buildChatRequest(runtime(), {
      model: "m",
      messages: [{ role: "user", content: "hi" }, callOnly],
      stream: false,
    });
    expect(built.body.stream).toBe(false);
    expect(built.body).not.toHaveProperty("stream_options");
    expect((built.body.messages as Record<string, unknown>[])[1]?.content).toBeNull();
  });
});

describe("speaker names on the Chat wire", () => {
  it("names every speaker in the text and sends `name` only when OpenAI accepts it", () => {
    const rt = { ...runtimeForNames() };
    const body = buildChatRequest(rt, {
      model: "m",
      messages: [
        { role: "user", content: "안녕", name: "민지" },
        { role: "user", content: "hi", name: "bob_2" },
      ],
    }).body as { messages: { name?: string; content: unknown }[] };
    expect(body.messages[0]).toEqual({ role: "user", content: "민지: 안녕" });
    expect(body.messages[1]).toEqual({ role: "user", content: "bob_2: hi", name: "bob_2" });
  });
});

function runtimeForNames(): Runtime {
  return {
    provider: "p",
    apiMode: "chat_completions",
    baseUrl: "http://127.0.0.1:1/v1",
    model: "m",
    headers: {},
    compat: { auth: "bearer" },
    source: {
      provider: "explicit",
      model: "explicit",
      baseUrl: "explicit",
      apiMode: "explicit",
      apiKey: "none",
    },
  };
}
