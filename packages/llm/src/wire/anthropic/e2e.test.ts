// End to end: the Anthropic adapter through streamLlm against the fake server on 127.0.0.1.
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Runtime } from "../../runtime.js";
import type { LlmRequest, Message } from "../../types.js";
import { completeLlm } from "../stream.js";
import { collectStream, done, fakeRuntime } from "../test/fake-route.js";
import { countBreakpoints } from "./cache.js";

const KEY = "sk-ant-e2e-ANTHROPIC-KEY-0002";
let fake: FakeLlm;
let runtime: Runtime;

beforeAll(async () => {
  fake = await startFakeLlm();
  runtime = fakeRuntime(fake.baseUrl, {
    provider: "anthropic",
    apiMode: "anthropic_messages",
    model: "claude-sonnet-4-5",
    apiKey: KEY,
    compat: { auth: "x-api-key", promptCache: true },
  });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

const collect = (request: LlmRequest) => collectStream(runtime, request);

const ask = (messages: Message[], extra: Partial<LlmRequest> = {}): LlmRequest => ({
  model: "claude-sonnet-4-5",
  system: "You are terse.",
  messages,
  ...extra,
});

describe("anthropic end to end against the fake server", () => {
  it("streams text, sends x-api-key and anthropic-version as headers only", async () => {
    fake.enqueue({ text: "Hello from the fake Messages API", chunkSize: 4 });
    const events = await collect(ask([{ role: "user", content: "hi" }]));
    expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(1);
    const m = done(events);
    expect(m.parts).toEqual([{ type: "text", text: "Hello from the fake Messages API" }]);
    expect(m.stopReason).toBe("end");
    const req = fake.requests[0]!;
    expect(req.path).toBe("/v1/messages");
    expect(req.headers["x-api-key"]).toBe(KEY);
    expect(req.headers["anthropic-version"]).toBe("2023-06-01");
    expect(req.rawBody.toString("utf8")).not.toContain(KEY);
    expect(req.body).toMatchObject({ system: [{ type: "text", text: "You are terse." }], max_tokens: 8192 });
  });

  it("runs a parallel tool round trip; results go back in one user turn and the server accepts them", async () => {
    fake.enqueue(
      {
        toolCalls: [
          { name: "read_file", arguments: { path: "a.txt" } },
          { name: "list_dir", arguments: { dir: "." } },
        ],
      },
      { text: "Both done." },
    );
    const tools = [
      {
        name: "read_file",
        description: "Read a file",
        parameters: { type: "object", properties: { path: { type: "string" } } },
      },
      {
        name: "list_dir",
        description: "List",
        parameters: { type: "object", properties: { dir: { type: "string" } } },
      },
    ];
    const history: Message[] = [{ role: "user", content: "read and list" }];
    const first = done(await collect(ask(history, { tools })));
    expect(first.stopReason).toBe("tool_calls");
    const calls = first.parts.filter((p) => p.type === "toolCall");
    expect(calls.map((c) => c.type === "toolCall" && JSON.parse(c.argumentsJson))).toEqual([
      { path: "a.txt" },
      { dir: "." },
    ]);
    history.push(first);
    for (const c of calls) {
      if (c.type === "toolCall")
        history.push({ role: "tool", callId: c.callId, toolName: c.name, content: "ok", isError: false });
    }
    history.push({ role: "user", content: "and summarise", name: "ann" });
    const second = done(await collect(ask(history, { tools })));
    expect(second.parts).toEqual([{ type: "text", text: "Both done." }]);
    expect(fake.violations).toEqual([]);
    const sent = (
      fake.requests[1]!.body as { messages: { role: string; content: Record<string, unknown>[] }[] }
    ).messages;
    expect(sent.map((t) => t.role)).toEqual(["user", "assistant", "user"]);
    expect(sent[2]!.content.map((b) => b["type"])).toEqual(["tool_result", "tool_result", "text"]);
  });

  it("keeps a thinking block with its signature and sends it back untouched", async () => {
    fake.enqueue({ reasoning: "Consider the options.", text: "Pick B." }, { text: "Still B." });
    const history: Message[] = [{ role: "user", content: "A or B?" }];
    const first = done(await collect(ask(history, { reasoning: { budgetTokens: 2048 } })));
    expect(fake.requests[0]!.body).toMatchObject({ thinking: { type: "enabled", budget_tokens: 2048 } });
    const reasoning = first.parts.find((p) => p.type === "reasoning");
    const raw = reasoning?.type === "reasoning" ? reasoning.raw : undefined;
    expect(raw).toEqual({
      type: "thinking",
      thinking: "Consider the options.",
      signature: expect.any(String),
    });
    expect(String(raw?.["signature"])).not.toBe("");
    history.push(first, { role: "user", content: "sure?" });
    done(await collect(ask(history, { reasoning: { budgetTokens: 2048 } })));
    expect(fake.violations).toEqual([]);
    const sent = (fake.requests[1]!.body as { messages: { content: Record<string, unknown>[] }[] }).messages;
    expect(sent[1]!.content[0]).toEqual(raw);
  });

  it("reports a refusal stop reason", async () => {
    fake.enqueue({ refusal: "I can't help with that." });
    const m = done(await collect(ask([{ role: "user", content: "bad" }])));
    expect(m.stopReason).toBe("refusal");
  });

  it("places at most 4 cache breakpoints and reports cache usage with inputTokens as the whole prompt", async () => {
    fake.enqueue({ text: "cached", usage: { input: 2000, output: 4, cacheRead: 1500, cacheWrite: 300 } });
    const history: Message[] = [
      { role: "user", content: "one" },
      { role: "user", content: "two" },
    ];
    const m = done(
      await collect(
        ask(history, {
          cache: true,
          tools: [{ name: "t", description: "d", parameters: { type: "object" } }],
        }),
      ),
    );
    expect(m.usage).toEqual({
      inputTokens: 2000,
      outputTokens: 4,
      cacheReadTokens: 1500,
      cacheWriteTokens: 300,
      reasoningTokens: 0,
    });
    const body = fake.requests[0]!.body as Record<string, unknown>;
    expect(countBreakpoints(body)).toBeGreaterThan(0);
    expect(countBreakpoints(body)).toBeLessThanOrEqual(4);
    expect(fake.violations).toEqual([]);
  });

  it("turns a connection dropped mid-stream into a network error and never a done", async () => {
    fake.enqueue({
      fault: "drop",
      reply: { text: "This reply is cut off part way", chunkSize: 3 },
      afterEvents: 5,
    });
    const events = await collect(ask([{ role: "user", content: "hi" }]));
    expect(events.some((e) => e.type === "done")).toBe(false);
    expect(events[events.length - 1]).toMatchObject({ type: "error", error: { kind: "network" } });
  });

  it("turns an overloaded_error event inside the stream into a retryable server error", async () => {
    const start = {
      type: "message_start",
      message: { id: "msg_x", usage: { input_tokens: 3, output_tokens: 1 } },
    };
    const error = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    fake.enqueue({
      fault: "raw",
      headers: { "content-type": "text/event-stream" },
      body: `event: message_start\ndata: ${JSON.stringify(start)}\n\nevent: error\ndata: ${JSON.stringify(error)}\n\n`,
    });
    const events = await collect(ask([{ role: "user", content: "hi" }]));
    expect(events.some((e) => e.type === "done")).toBe(false);
    expect(events[events.length - 1]).toMatchObject({
      type: "error",
      error: { kind: "server", retryable: true },
    });
  });

  it("reads a non-streaming JSON reply", async () => {
    fake.enqueue({ text: "Plain JSON." });
    const result = await completeLlm(runtime, ask([{ role: "user", content: "hi" }], { stream: false }));
    expect(result.ok && result.message.parts).toEqual([{ type: "text", text: "Plain JSON." }]);
  });
});
