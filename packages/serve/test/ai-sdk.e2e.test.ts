// A second, independent client: the `ai` SDK with @ai-sdk/openai-compatible, whose strict chunk
// parsing checks the shape of everything `iris serve` streams (text, usage, tool calls).
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, jsonSchema, streamText, tool } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ALICE, type Harness, startHarness } from "./helpers.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const model = () =>
  createOpenAICompatible({ name: "iris", baseURL: h.baseURL, apiKey: ALICE, includeUsage: true })("iris");

describe("the ai SDK (openai-compatible) against iris serve", () => {
  it("streams text with usage", async () => {
    h.fake.enqueue({ text: "스트리밍 응답입니다", usage: { input: 20, output: 6 }, chunkSize: 3 });
    const result = streamText({ model: model(), prompt: "hi" });
    expect(await result.text).toBe("스트리밍 응답입니다");
    const usage = await result.usage;
    expect(usage.inputTokens).toBe(20);
    expect(usage.outputTokens).toBe(6);
    expect(await result.finishReason).toBe("stop");
  });

  it("generates text without streaming", async () => {
    h.fake.enqueue({ text: "plain", usage: { input: 5, output: 1 } });
    const result = await generateText({ model: model(), prompt: "hi" });
    expect(result.text).toBe("plain");
    expect(result.usage.totalTokens).toBe(6);
  });

  it("returns tool calls of the client's tools, streamed and not", async () => {
    const tools = {
      get_weather: tool({
        description: "The weather of a city",
        inputSchema: jsonSchema<{ city: string }>({
          type: "object",
          properties: { city: { type: "string" } },
          required: ["city"],
        }),
      }),
    };
    h.fake.enqueue(
      { toolCalls: [{ name: "get_weather", arguments: { city: "Busan" } }] },
      { toolCalls: [{ name: "get_weather", arguments: { city: "Jeju" } }] },
    );
    const r1 = await generateText({ model: model(), prompt: "weather?", tools });
    expect(r1.finishReason).toBe("tool-calls");
    expect(r1.toolCalls[0]).toMatchObject({ toolName: "get_weather", input: { city: "Busan" } });
    const r2 = streamText({ model: model(), prompt: "weather?", tools });
    const calls = await r2.toolCalls;
    expect(calls[0]).toMatchObject({ toolName: "get_weather", input: { city: "Jeju" } });
    expect(await r2.finishReason).toBe("tool-calls");
  });
});
