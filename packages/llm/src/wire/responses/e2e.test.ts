// End to end: the Responses adapter through streamLlm against the fake server on 127.0.0.1.
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Runtime } from "../../runtime.js";
import type { LlmRequest, Message } from "../../types.js";
import { completeLlm } from "../stream.js";
import { collectStream, done, fakeRuntime } from "../test/fake-route.js";

const KEY = "sk-e2e-RESPONSES-KEY-0001";
let fake: FakeLlm;
let runtime: Runtime;

beforeAll(async () => {
  fake = await startFakeLlm();
  runtime = fakeRuntime(fake.baseUrl, {
    provider: "openai",
    apiMode: "responses",
    model: "gpt-5",
    apiKey: KEY,
    compat: { auth: "bearer" },
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
  model: "gpt-5",
  system: "You are terse.",
  messages,
  ...extra,
});

describe("responses end to end against the fake server", () => {
  it("streams text in deltas, maps usage with cached tokens, and sends the key only as a header", async () => {
    fake.enqueue({
      text: "Hello from the fake Responses API",
      chunkSize: 5,
      usage: { input: 900, output: 7, cacheRead: 512 },
    });
    const events = await collect(ask([{ role: "user", content: "hi" }]));
    expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(1);
    const m = done(events);
    expect(m.parts).toEqual([{ type: "text", text: "Hello from the fake Responses API" }]);
    expect(m.usage).toMatchObject({ inputTokens: 900, cacheReadTokens: 512, outputTokens: 7 });
    expect(m.responseId).toBeTruthy();
    const req = fake.requests[0]!;
    expect(req.path).toBe("/v1/responses");
    expect(req.headers["authorization"]).toBe(`Bearer ${KEY}`);
    expect(req.rawBody.toString("utf8")).not.toContain(KEY);
    expect(req.body).toMatchObject({ instructions: "You are terse.", store: false, stream: true });
  });

  it("runs a parallel tool round trip and the server accepts the results", async () => {
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
    const second = done(await collect(ask(history, { tools })));
    expect(second.parts).toEqual([{ type: "text", text: "Both done." }]);
    expect(fake.violations).toEqual([]);
    const input = (fake.requests[1]!.body as { input: Record<string, unknown>[] }).input;
    expect(input.filter((i) => i["type"] === "function_call_output").map((i) => i["call_id"])).toEqual(
      calls.map((c) => c.type === "toolCall" && c.callId),
    );
  });

  it("keeps the reasoning item and sends it back with only allowlisted fields", async () => {
    fake.enqueue({ reasoning: "Think about it first.", text: "Answer one." }, { text: "Answer two." });
    const history: Message[] = [{ role: "user", content: "q1" }];
    const first = done(await collect(ask(history, { reasoning: { effort: "low" } })));
    const reasoning = first.parts.find((p) => p.type === "reasoning");
    expect(reasoning?.type === "reasoning" && reasoning.text).toBe("Think about it first.");
    const raw = reasoning?.type === "reasoning" ? reasoning.raw : undefined;
    expect(raw).toMatchObject({
      type: "reasoning",
      id: expect.any(String),
      encrypted_content: expect.any(String),
    });
    expect(fake.requests[0]!.body).toMatchObject({ include: ["reasoning.encrypted_content"] });
    history.push(first, { role: "user", content: "q2" });
    done(await collect(ask(history, { reasoning: { effort: "low" } })));
    expect(fake.violations).toEqual([]);
    const sent = (fake.requests[1]!.body as { input: Record<string, unknown>[] }).input.find(
      (i) => i["type"] === "reasoning",
    );
    expect(sent).toEqual({
      type: "reasoning",
      id: raw?.["id"],
      summary: raw?.["summary"],
      encrypted_content: raw?.["encrypted_content"],
    });
  });

  it("reports a refusal as stop reason refusal", async () => {
    fake.enqueue({ refusal: "I won't do that." });
    const m = done(await collect(ask([{ role: "user", content: "bad" }])));
    expect(m.stopReason).toBe("refusal");
    expect(m.refusal).toBe("I won't do that.");
  });

  it("turns a connection dropped mid-stream into a network error and never a done", async () => {
    fake.enqueue({
      fault: "drop",
      reply: { text: "This reply is cut off part way", chunkSize: 3 },
      afterEvents: 6,
    });
    const events = await collect(ask([{ role: "user", content: "hi" }]));
    expect(events.some((e) => e.type === "done")).toBe(false);
    expect(events[events.length - 1]).toMatchObject({ type: "error", error: { kind: "network" } });
  });

  it("turns response.failed inside the stream into an error of the right kind", async () => {
    const failed = {
      type: "response.failed",
      response: {
        id: "resp_f",
        status: "failed",
        output: [],
        error: { code: "rate_limit_exceeded", message: "slow down" },
      },
    };
    fake.enqueue({
      fault: "raw",
      headers: { "content-type": "text/event-stream" },
      body: `event: response.failed\ndata: ${JSON.stringify(failed)}\n\n`,
    });
    const events = await collect(ask([{ role: "user", content: "hi" }]));
    expect(events.some((e) => e.type === "done")).toBe(false);
    expect(events[events.length - 1]).toMatchObject({
      type: "error",
      error: { kind: "rate_limit", retryable: true },
    });
  });

  it("reads a non-streaming JSON reply", async () => {
    fake.enqueue({ text: "Plain JSON.", usage: { input: 10, output: 3 } });
    const result = await completeLlm(runtime, ask([{ role: "user", content: "hi" }], { stream: false }));
    expect(result.ok && result.message.parts).toEqual([{ type: "text", text: "Plain JSON." }]);
    expect(fake.requests[0]!.body).toMatchObject({ stream: false });
  });
});
