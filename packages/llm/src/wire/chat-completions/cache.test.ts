// Prompt caching on Chat Completions routes (SPEC P6): an aggregator's Claude or Gemini model
// caches only what `cache_control` marks. Against the fake server, which bills a repeated prefix
// as cache reads only when the request carries markers for such a model.
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../runtime.js";
import type { Message } from "../../types.js";
import { completeLlm } from "../stream.js";
import { applyChatCacheMarkers } from "./cache.js";

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
  fake.setHandler(() => ({ text: "ok" }));
});
afterAll(async () => {
  await fake.close();
});

function openrouter(): Runtime {
  return {
    provider: "openrouter",
    apiMode: "chat_completions",
    baseUrl: fake.baseUrl,
    model: "anthropic/claude-sonnet-4.6",
    apiKey: "k",
    headers: {},
    compat: { auth: "bearer", promptCache: true, cacheMarkerModels: ["anthropic/", "google/gemini"] },
    source: {
      provider: "explicit",
      model: "explicit",
      baseUrl: "explicit",
      apiMode: "explicit",
      apiKey: "explicit",
    },
  };
}

const history: Message[] = [
  { role: "user", content: `Read this. ${"lorem ipsum dolor sit amet ".repeat(400)}` },
  {
    role: "assistant",
    parts: [{ type: "text", text: "Done." }],
    origin: { provider: "openrouter", apiMode: "chat_completions", model: "m" },
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    stopReason: "end",
  },
];

/** Two requests of one conversation: the second repeats the first and its answer, then asks on. */
async function twice(model: string, cache: boolean) {
  const rt = { ...openrouter(), model };
  const ask = (messages: Message[]) => completeLlm(rt, { model, system: "You are Iris.", messages, cache });
  const opening: Message[] = [...history, { role: "user", content: "first" }];
  const first = await ask(opening);
  if (!first.ok) throw new Error(first.error.message);
  const second = await ask([...opening, first.message, { role: "user", content: "second" }]);
  if (!second.ok) throw new Error(second.error.message);
  return {
    usage: second.message.usage,
    body: fake.requests.at(-1)?.body as { messages: Record<string, unknown>[] },
  };
}

describe("chat completions cache markers", () => {
  it("marks the system prompt and the newest message for a Claude model behind OpenRouter, and reads the cache", async () => {
    const { usage, body } = await twice("anthropic/claude-sonnet-4.6", true);
    const marked = JSON.stringify(body.messages).match(/"cache_control"/g) ?? [];
    expect(marked).toHaveLength(2);
    expect(body.messages[0]).toMatchObject({
      role: "system",
      content: [{ type: "text", cache_control: { type: "ephemeral" } }],
    });
    expect(usage.cacheReadTokens).toBeGreaterThan(1_000);
    expect(fake.violations).toEqual([]);
  });

  it("without markers the same Claude model reads nothing from the cache", async () => {
    const { usage, body } = await twice("anthropic/claude-opus-4.1", false);
    expect(JSON.stringify(body)).not.toContain("cache_control");
    expect(usage.cacheReadTokens).toBe(0);
  });

  it("adds no markers for models that cache on their own", async () => {
    const { usage, body } = await twice("openai/gpt-4.1", true);
    expect(JSON.stringify(body)).not.toContain("cache_control");
    expect(usage.cacheReadTokens).toBeGreaterThan(1_000);
  });
});

describe("chat completions cache markers after a long round", () => {
  const marks = (m: Record<string, unknown> | undefined) => JSON.stringify(m ?? {}).includes("cache_control");
  const round = (n: number) => [
    { role: "user" as const, content: "read them all" },
    {
      role: "assistant" as const,
      content: null,
      tool_calls: Array.from({ length: n }, (_, i) => ({
        id: `c${i}`,
        type: "function",
        function: { name: "read", arguments: "{}" },
      })),
    },
    ...Array.from({ length: n }, (_, i) => ({
      role: "tool" as const,
      tool_call_id: `c${i}`,
      content: `r${i}`,
    })),
  ];

  it("marks the previous request's newest message again when the round exceeds the 20-block look-back", () => {
    const out = applyChatCacheMarkers([{ role: "system", content: "s" }, ...round(12)]);
    expect(out.map(marks)).toEqual([true, true, false, ...Array(11).fill(false), true]);
  });

  it("leaves a short round with the newest marker only, so earlier bytes repeat (U5)", () => {
    const out = applyChatCacheMarkers([{ role: "system", content: "s" }, ...round(3)]);
    expect(out.map(marks)).toEqual([true, false, false, false, false, true]);
  });
});

describe("chat completions cache markers against the 20-block look-back", () => {
  it("a Claude model behind OpenRouter still reads the previous entry after 24 parallel calls", async () => {
    const model = "anthropic/claude-opus-4.5";
    const rt = { ...openrouter(), model };
    const origin = { provider: "openrouter", apiMode: "chat_completions" as const, model };
    const opening: Message = { role: "user", content: `Read these. ${"notes go on ".repeat(700)}` };
    const calls: Message = {
      role: "assistant",
      parts: Array.from({ length: 24 }, (_, i) => ({
        type: "toolCall" as const,
        callId: `call_${i}`,
        name: "read",
        argumentsJson: `{"part":${i}}`,
      })),
      origin,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      stopReason: "tool_calls",
    };
    const results: Message[] = Array.from({ length: 24 }, (_, i) => ({
      role: "tool" as const,
      callId: `call_${i}`,
      toolName: "read",
      content: `part ${i}`,
      isError: false,
    }));
    const ask = (messages: Message[]) =>
      completeLlm(rt, { model, system: "You are Iris.", messages, cache: true });
    await ask([opening]);
    const second = await ask([opening, calls, ...results]);
    if (!second.ok) throw new Error(second.error.message);
    expect(second.message.usage.cacheReadTokens).toBeGreaterThanOrEqual(1_024);
    expect(fake.violations).toEqual([]);
  });
});
