// streamLlm / completeLlm end to end over real HTTP against the fake LLM server (@iris/testkit).
// One describe per api mode: add a mode by adding an entry to MODES (with its expectations).
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { LlmError } from "../errors.js";
import type { StreamEvent } from "../events.js";
import type { ProviderCompat, Runtime } from "../runtime.js";
import type { ApiMode, LlmRequest } from "../types.js";
import { assistantText, toolCallsOf } from "../types.js";
import { completeLlm, type StreamOptions, streamLlm } from "./stream.js";

const KEY = "sk-iris-e2e-SECRET-0123456789abcdef";

interface ModeCase {
  mode: ApiMode;
  compat: ProviderCompat;
  /** The header the key travels in, and its expected value. */
  authHeader: string;
  authValue: string;
}

const MODES: ModeCase[] = [
  {
    mode: "chat_completions",
    compat: { auth: "bearer", streamUsage: true },
    authHeader: "authorization",
    authValue: `Bearer ${KEY}`,
  },
  // Helper B2 adds responses / anthropic_messages here.
];

function runtimeFor(c: ModeCase, baseUrl: string, withKey = true): Runtime {
  return {
    provider: "fake",
    apiMode: c.mode,
    baseUrl,
    model: "fake-model",
    apiKey: withKey ? KEY : undefined,
    headers: {},
    compat: c.compat,
    source: {
      provider: "explicit",
      model: "explicit",
      baseUrl: "explicit",
      apiMode: "default",
      apiKey: "env",
    },
  };
}

const ask = (extra: Partial<LlmRequest> = {}): LlmRequest => ({
  model: "fake-model",
  system: "You are terse.",
  messages: [{ role: "user", content: "hi" }],
  ...extra,
});

async function collect(iter: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of iter) out.push(e);
  return out;
}

function terminalOf(events: StreamEvent[]) {
  const ends = events.filter((e) => e.type === "done" || e.type === "error");
  expect(ends).toHaveLength(1);
  expect(events.at(-1)).toBe(ends[0]);
  return ends[0]!;
}

function errorOf(events: StreamEvent[]): LlmError {
  const end = terminalOf(events);
  if (end.type !== "error") throw new Error(`expected an error, got done: ${JSON.stringify(end.message)}`);
  return end.error;
}

describe.each(MODES)("streamLlm end to end: $mode", (c) => {
  let fake: FakeLlm;
  let runtime: Runtime;
  const run = (req: LlmRequest = ask(), opts: StreamOptions = {}) => collect(streamLlm(runtime, req, opts));

  beforeAll(async () => {
    fake = await startFakeLlm();
    runtime = runtimeFor(c, fake.baseUrl);
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(() => {
    expect(fake.violations).toEqual([]);
  });

  it("streams text in several deltas and ends with one done", async () => {
    fake.enqueue({ text: "Hello there, world!", chunkSize: 4 });
    const events = await run();
    expect(events[0]).toEqual({ type: "start" });
    const deltas = events.filter((e) => e.type === "text_delta");
    expect(deltas.length).toBeGreaterThan(2);
    const end = terminalOf(events);
    expect(end.type === "done" && assistantText(end.message)).toBe("Hello there, world!");
    expect(end.type === "done" && end.message.stopReason).toBe("end");
    expect(end.type === "done" && end.message.origin).toEqual({
      provider: "fake",
      apiMode: c.mode,
      model: "fake-model",
    });
  });

  it("returns parallel tool calls with their arguments and provider ids", async () => {
    fake.enqueue({
      toolCalls: [
        { name: "read_file", arguments: { path: "README.md" }, id: "call_one" },
        { name: "list_dir", arguments: { path: "." }, id: "call_two" },
      ],
      chunkSize: 3,
    });
    const r = await completeLlm(
      runtime,
      ask({
        tools: [
          { name: "read_file", description: "r", parameters: { type: "object" } },
          { name: "list_dir", description: "l", parameters: { type: "object" } },
        ],
      }),
    );
    if (!r.ok) throw new Error(r.error.message);
    const calls = toolCallsOf(r.message);
    expect(calls.map((t) => [t.name, JSON.parse(t.argumentsJson)])).toEqual([
      ["read_file", { path: "README.md" }],
      ["list_dir", { path: "." }],
    ]);
    expect(calls.map((t) => t.providerIds?.callId)).toEqual(["call_one", "call_two"]);
    expect(r.message.stopReason).toBe("tool_calls");
  });

  it("keeps reasoning apart from the answer", async () => {
    fake.enqueue({ reasoning: "Two plus two is four.", text: "4" });
    const r = await completeLlm(runtime, ask({ reasoning: { effort: "low" } }));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.message.parts.map((p) => p.type)).toEqual(["reasoning", "text"]);
    expect(r.message.parts[0]?.type === "reasoning" && r.message.parts[0].text).toBe("Two plus two is four.");
  });

  it("maps usage, cached and reasoning tokens included", async () => {
    fake.enqueue({ text: "ok", usage: { input: 1200, output: 30, cacheRead: 1000, reasoning: 7 } });
    const r = await completeLlm(runtime, ask());
    if (!r.ok) throw new Error(r.error.message);
    expect(r.message.usage).toMatchObject({
      inputTokens: 1200,
      outputTokens: 30,
      cacheReadTokens: 1000,
      reasoningTokens: 7,
    });
  });

  it("without streaming emits the same event sequence from one JSON reply", async () => {
    fake.enqueue({ text: "whole answer", toolCalls: [{ name: "f", arguments: { a: 1 } }] });
    const events = await run(ask({ stream: false }));
    const sent = fake.requests.at(-1)?.body as { stream?: unknown } | undefined;
    expect(sent?.stream).not.toBe(true);
    expect(events.map((e) => e.type)).toEqual([
      "start",
      "text_start",
      "text_delta",
      "text_end",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_end",
      "done",
    ]);
  });

  it("sends the key in its header to its own endpoint", async () => {
    fake.enqueue({ text: "ok" });
    await run();
    const req = fake.requests.at(-1)!;
    expect(req.headers[c.authHeader]).toBe(c.authValue);
    expect(req.headers["content-type"]).toContain("application/json");
  });

  it("429 with Retry-After → rate_limit with retryAfterMs", async () => {
    fake.enqueue({ fault: "status", status: 429, retryAfter: "2" });
    const e = errorOf(await run());
    expect(e).toMatchObject({ kind: "rate_limit", status: 429, retryAfterMs: 2000, retryable: true });
  });

  it("500 → server", async () => {
    fake.enqueue({ fault: "status", status: 500 });
    expect(errorOf(await run())).toMatchObject({ kind: "server", status: 500, retryable: true });
  });

  it("401 → auth, and the message never carries the key", async () => {
    fake.enqueue({
      fault: "status",
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${KEY}`, type: "invalid_request_error" } },
    });
    const e = errorOf(await run());
    expect(e).toMatchObject({ kind: "auth", status: 401, retryable: false });
    expect(e.message).toContain("Incorrect API key provided");
    expect(JSON.stringify(e)).not.toContain(KEY);
    expect(fake.requests.at(-1)?.headers[c.authHeader]).toBe(c.authValue);
  });

  it("404 → not_found", async () => {
    fake.enqueue({ fault: "status", status: 404 });
    expect(errorOf(await run())).toMatchObject({ kind: "not_found", status: 404 });
  });

  it("a head followed by silence counts against the first-byte timeout → timeout", async () => {
    fake.enqueue({ fault: "stall" });
    const e = errorOf(await run(ask(), { connectTimeoutMs: 200 }));
    expect(e).toMatchObject({ kind: "timeout", retryable: true });
    expect(e.message).toContain("first-byte timeout");
  });

  it("a dropped connection mid-stream → network, never done", async () => {
    fake.enqueue({
      fault: "drop",
      reply: { text: "this reply will be cut short", chunkSize: 2 },
      afterEvents: 4,
    });
    const events = await run();
    expect(events.some((e) => e.type === "text_delta")).toBe(true);
    expect(events.some((e) => e.type === "done")).toBe(false);
    expect(errorOf(events)).toMatchObject({ kind: "network", retryable: true });
  });

  it("malformed SSE → invalid_response", async () => {
    fake.enqueue({ fault: "malformed" });
    expect(errorOf(await run())).toMatchObject({ kind: "invalid_response" });
  });

  it("malformed JSON without streaming → invalid_response", async () => {
    fake.enqueue({ fault: "malformed" });
    expect(errorOf(await run(ask({ stream: false })))).toMatchObject({ kind: "invalid_response" });
  });

  it("abort mid-stream → one aborted error and no done", async () => {
    fake.enqueue({ text: "a long answer that the user interrupts", chunkSize: 2 });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    for await (const e of streamLlm(runtime, ask(), { signal: controller.signal })) {
      events.push(e);
      if (e.type === "text_delta") controller.abort();
    }
    expect(events.filter((e) => e.type === "text_delta")).toHaveLength(1);
    expect(events.some((e) => e.type === "done")).toBe(false);
    expect(errorOf(events)).toMatchObject({ kind: "aborted", retryable: false });
  });

  it("abort while the server is silent → aborted", async () => {
    fake.enqueue({ fault: "stall" });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    for await (const e of streamLlm(runtime, ask(), { signal: controller.signal })) {
      events.push(e);
      if (e.type === "start") controller.abort();
    }
    expect(errorOf(events).kind).toBe("aborted");
  });

  it("an already aborted signal sends nothing", async () => {
    const before = fake.requests.length;
    const r = await completeLlm(runtime, ask(), { signal: AbortSignal.abort() });
    expect(r.ok === false && r.error.kind).toBe("aborted");
    expect(fake.requests.length).toBe(before);
  });
});

describe("transport: key scoping and connection failures", () => {
  const chat = MODES[0]!;
  let home: FakeLlm;
  let other: FakeLlm;

  beforeAll(async () => {
    home = await startFakeLlm();
    other = await startFakeLlm();
  });
  afterAll(async () => {
    await Promise.all([home.close(), other.close()]);
  });

  it("refuses a redirect to another origin, which never sees the key", async () => {
    home.enqueue({
      fault: "raw",
      status: 307,
      headers: { location: `${other.baseUrl}/chat/completions` },
      body: "",
    });
    other.enqueue({ text: "should not be reached" });
    const r = await completeLlm(runtimeFor(chat, home.baseUrl), ask());
    expect(r.ok === false && r.error.kind).toBe("invalid_request");
    expect(other.requests).toHaveLength(0);
  });

  it("follows a redirect within its own origin, key attached", async () => {
    home.enqueue({
      fault: "raw",
      status: 307,
      headers: { location: "/v1/chat/completions?moved=1" },
      body: "",
    });
    home.enqueue({ text: "moved" });
    const r = await completeLlm(runtimeFor(chat, home.baseUrl), ask());
    expect(r.ok && assistantText(r.message)).toBe("moved");
    expect(home.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("sends no auth header when the runtime has no key", async () => {
    other.enqueue({ text: "ok" });
    await completeLlm(runtimeFor(chat, other.baseUrl, false), ask());
    expect(other.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it("a refused connection → unreachable: nothing listens at the URL, not worth a retry", async () => {
    const gone = await startFakeLlm();
    const url = gone.baseUrl;
    await gone.close();
    const r = await completeLlm(runtimeFor(chat, url), ask());
    expect(r.ok === false && r.error).toMatchObject({
      kind: "unreachable",
      retryable: false,
      code: "ECONNREFUSED",
    });
    expect(r.ok === false && r.error.message).toContain(`nothing listens at ${url}`);
    expect(r.ok === false && r.error.message).not.toContain(KEY);
  });

  it("an unknown host → unreachable", async () => {
    const r = await completeLlm(runtimeFor(chat, "http://no-such-host.invalid/v1"), ask());
    expect(r.ok === false && r.error).toMatchObject({ kind: "unreachable", code: "ENOTFOUND" });
  });

  it("providers.ID.timeouts reach the transport through the runtime", async () => {
    home.enqueue({ fault: "stall" });
    const rt = { ...runtimeFor(chat, home.baseUrl), timeouts: { firstByteMs: 150 } };
    const r = await completeLlm(rt, ask());
    expect(r.ok === false && r.error.message).toContain("no response within 150 ms (first-byte timeout)");
  });
});
