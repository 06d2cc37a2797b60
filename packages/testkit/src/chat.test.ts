import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm } from "./server.js";
import { minimalBody, parseSse, post } from "./test-client.js";
import type { FakeLlm } from "./types.js";

let fake: FakeLlm;
beforeEach(async () => {
  fake = await startFakeLlm();
});
afterEach(async () => {
  expect(fake.violations).toEqual([]);
  await fake.close();
});

type Chunk = { choices: { delta: Record<string, unknown>; finish_reason: string | null }[]; usage?: unknown };

async function streamChunks(extra: Record<string, unknown> = {}): Promise<Chunk[]> {
  const res = await post(fake, "chat", minimalBody("chat", true, extra));
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const text = await res.text();
  const events = parseSse(text);
  expect(events.at(-1)?.data).toBe("[DONE]");
  expect(events.every((e) => e.event === undefined)).toBe(true);
  return events.slice(0, -1).map((e) => JSON.parse(e.data) as Chunk);
}

const deltas = (chunks: Chunk[], key: string): string =>
  chunks
    .map((c) => c.choices[0]?.delta[key])
    .filter((v): v is string => typeof v === "string")
    .join("");

describe("chat completions, streaming", () => {
  it("streams text in chunkSize deltas and ends with finish_reason stop", async () => {
    fake.enqueue({ text: "Hello there, friend", chunkSize: 5 });
    const chunks = await streamChunks();
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    const contentDeltas = chunks
      .map((c) => c.choices[0]?.delta.content)
      .filter((v) => typeof v === "string" && v);
    expect(contentDeltas).toEqual(["Hello", " ther", "e, fr", "iend"]);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks.some((c) => "usage" in c)).toBe(false);
  });

  it("streams parallel tool calls: id and name first, then indexed argument fragments", async () => {
    fake.enqueue({
      toolCalls: [
        { name: "read", arguments: { path: "/a/very/long/path.txt" } },
        { name: "ls", arguments: '{"dir":"/"}', id: "call_mine" },
      ],
    });
    const chunks = await streamChunks();
    type Tc = { index: number; id?: string; function: { name?: string; arguments: string } };
    const tcs = chunks.flatMap((c) => (c.choices[0]?.delta.tool_calls as Tc[] | undefined) ?? []);
    const first = tcs.filter((t) => t.id !== undefined);
    expect(first.map((t) => [t.index, t.function.name, t.function.arguments])).toEqual([
      [0, "read", ""],
      [1, "ls", ""],
    ]);
    expect(first[1]?.id).toBe("call_mine");
    expect(first[0]?.id).toMatch(/^call_/);
    const args = (i: number) =>
      tcs
        .filter((t) => t.index === i)
        .map((t) => t.function.arguments)
        .join("");
    expect(JSON.parse(args(0))).toEqual({ path: "/a/very/long/path.txt" });
    expect(args(1)).toBe('{"dir":"/"}');
    expect(tcs.filter((t) => t.index === 0 && t.id === undefined).length).toBeGreaterThan(1);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("tool_calls");
  });

  it("streams reasoning_content before content", async () => {
    fake.enqueue({ reasoning: "Let me think.", text: "42" });
    const chunks = await streamChunks();
    expect(deltas(chunks, "reasoning_content")).toBe("Let me think.");
    expect(deltas(chunks, "content")).toBe("42");
    const firstReasoning = chunks.findIndex((c) => c.choices[0]?.delta.reasoning_content);
    const firstContent = chunks.findIndex((c) => c.choices[0]?.delta.content);
    expect(firstReasoning).toBeLessThan(firstContent);
  });

  it("sends a usage chunk with empty choices when include_usage is set", async () => {
    fake.enqueue({ text: "hi", usage: { input: 100, output: 20, cacheRead: 60, reasoning: 7 } });
    const chunks = await streamChunks({ stream_options: { include_usage: true } });
    const last = chunks.at(-1) as Chunk;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({
      prompt_tokens: 100,
      completion_tokens: 20,
      total_tokens: 120,
      prompt_tokens_details: { cached_tokens: 60 },
      completion_tokens_details: { reasoning_tokens: 7 },
    });
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it("streams a refusal in the refusal field; max_tokens finishes with length", async () => {
    fake.enqueue(
      { refusal: "I can't help with that.", stopReason: "refusal" },
      { text: "cut", stopReason: "max_tokens" },
    );
    const refused = await streamChunks();
    expect(deltas(refused, "refusal")).toBe("I can't help with that.");
    expect(deltas(refused, "content")).toBe("");
    const cut = await streamChunks();
    expect(cut.at(-1)?.choices[0]?.finish_reason).toBe("length");
  });
});

describe("chat completions, non-streaming", () => {
  async function complete(): Promise<Record<string, unknown>> {
    const res = await post(fake, "chat", minimalBody("chat", false));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    return (await res.json()) as Record<string, unknown>;
  }

  it("returns a chat.completion with message, tool calls, reasoning and usage", async () => {
    fake.enqueue({
      id: "chatcmpl-fixed",
      text: "Calling tools",
      reasoning: "plan",
      toolCalls: [
        { name: "a", arguments: { x: 1 } },
        { name: "b", arguments: {} },
      ],
      usage: { input: 50, output: 9, cacheRead: 10, reasoning: 2 },
    });
    const body = await complete();
    expect(body).toMatchObject({
      id: "chatcmpl-fixed",
      object: "chat.completion",
      model: "gpt-fake",
      usage: { prompt_tokens: 50, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 10 } },
    });
    const choice = (body.choices as Record<string, unknown>[])[0] as Record<string, unknown>;
    expect(choice.finish_reason).toBe("tool_calls");
    const message = choice.message as Record<string, unknown>;
    expect(message.content).toBe("Calling tools");
    expect(message.reasoning_content).toBe("plan");
    expect(message.refusal).toBeNull();
    const calls = message.tool_calls as {
      id: string;
      type: string;
      function: { name: string; arguments: string };
    }[];
    expect(calls.map((c) => [c.type, c.function.name, c.function.arguments])).toEqual([
      ["function", "a", '{"x":1}'],
      ["function", "b", "{}"],
    ]);
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
  });

  it("returns a refusal with null content and default usage derived from the body", async () => {
    fake.enqueue({ refusal: "No." });
    const body = await complete();
    const message = ((body.choices as Record<string, unknown>[])[0] as { message: Record<string, unknown> })
      .message;
    expect(message).toMatchObject({ content: null, refusal: "No." });
    const usage = body.usage as { prompt_tokens: number; completion_tokens: number };
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.completion_tokens).toBeGreaterThan(0);
  });
});
