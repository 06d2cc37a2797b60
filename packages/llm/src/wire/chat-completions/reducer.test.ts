import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { StreamEvent } from "../../events.js";
import type { Origin } from "../../types.js";
import { SseParser } from "../sse.js";
import { ChatCompletionsReducer } from "./reducer.js";

const origin: Origin = { provider: "openai", apiMode: "chat_completions", model: "gpt-test" };

/** Feeds a recorded capture through the SSE parser in odd-sized byte chunks, then the reducer. */
function reduceFixture(name: string, chunkSize = 37): StreamEvent[] {
  const bytes = readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
  return reduceBytes(bytes, chunkSize);
}

function reduceBytes(bytes: Uint8Array, chunkSize = 37): StreamEvent[] {
  const parser = new SseParser();
  const reducer = new ChatCompletionsReducer(origin);
  const out: StreamEvent[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) {
    for (const sse of parser.push(bytes.subarray(i, i + chunkSize))) out.push(...reducer.push(sse));
  }
  for (const sse of parser.end()) out.push(...reducer.push(sse));
  out.push(...reducer.end());
  return out;
}

function sse(lines: string[]): Uint8Array {
  return new TextEncoder().encode(lines.map((l) => `data: ${l}\n\n`).join(""));
}

function terminal(events: StreamEvent[]) {
  const ends = events.filter((e) => e.type === "done" || e.type === "error");
  expect(ends).toHaveLength(1);
  expect(events.at(-1)).toBe(ends[0]);
  return ends[0]!;
}

function doneMessage(events: StreamEvent[]) {
  const end = terminal(events);
  if (end.type !== "done") throw new Error(`expected done, got ${JSON.stringify(end)}`);
  return end.message;
}

describe("ChatCompletionsReducer on recorded captures", () => {
  it("streams text and maps usage with cached tokens", () => {
    const events = reduceFixture("text.sse");
    expect(events[0]).toEqual({ type: "start" });
    const deltas = events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : []));
    expect(deltas).toEqual(["Hello", ", wor", "ld! 안녕하세요"]);
    expect(events).toContainEqual({ type: "text_end", index: 0, text: "Hello, world! 안녕하세요" });
    const m = doneMessage(events);
    expect(m.parts).toEqual([{ type: "text", text: "Hello, world! 안녕하세요" }]);
    expect(m.stopReason).toBe("end");
    expect(m.responseId).toBe("chatcmpl-AhT2k9x");
    expect(m.origin).toEqual(origin);
    expect(m.usage).toEqual({
      inputTokens: 1234,
      outputTokens: 9,
      cacheReadTokens: 1024,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
  });

  it("gives the same result whatever the chunk boundaries", () => {
    const a = doneMessage(reduceFixture("text.sse", 1));
    const b = doneMessage(reduceFixture("text.sse", 4096));
    expect(a).toEqual(b);
  });

  it("accumulates parallel tool calls per index and keeps provider ids", () => {
    const events = reduceFixture("parallel-tool-calls.sse");
    const starts = events.filter((e) => e.type === "toolcall_start");
    expect(starts).toEqual([
      { type: "toolcall_start", index: 0, callId: "call_Wz3kq1", name: "read_file" },
      { type: "toolcall_start", index: 1, callId: "call_Yh8mP2", name: "list_dir" },
    ]);
    const m = doneMessage(events);
    expect(m.stopReason).toBe("tool_calls");
    expect(m.parts).toEqual([
      {
        type: "toolCall",
        callId: "call_Wz3kq1",
        name: "read_file",
        argumentsJson: '{"path": "README.md"}',
        providerIds: { callId: "call_Wz3kq1" },
      },
      {
        type: "toolCall",
        callId: "call_Yh8mP2",
        name: "list_dir",
        argumentsJson: '{"path": "."}',
        providerIds: { callId: "call_Yh8mP2" },
      },
    ]);
    expect(m.usage.inputTokens).toBe(310);
    expect(m.usage.outputTokens).toBe(48);
  });

  it("turns reasoning_content into a reasoning part before the text (CRLF capture)", () => {
    const events = reduceFixture("reasoning-content.sse");
    const types = events.map((e) => e.type);
    expect(types.indexOf("reasoning_end")).toBeLessThan(types.indexOf("text_start"));
    const m = doneMessage(events);
    expect(m.parts).toEqual([
      { type: "reasoning", text: "The user asks 2+2. That is 4." },
      { type: "text", text: "2 + 2 = 4." },
    ]);
    expect(m.usage.reasoningTokens).toBe(31);
    expect(m.usage.inputTokens).toBe(64);
  });

  it("maps content_filter and keeps the text streamed before it", () => {
    const m = doneMessage(reduceFixture("content-filter.sse"));
    expect(m.stopReason).toBe("content_filter");
    expect(m.parts).toEqual([{ type: "text", text: "Here is how" }]);
  });

  it("reports a refusal field as stopReason refusal with its text", () => {
    const m = doneMessage(reduceFixture("refusal.sse"));
    expect(m.stopReason).toBe("refusal");
    expect(m.refusal).toBe("I'm sorry, I can't help with that.");
  });
});

describe("ChatCompletionsReducer edge cases", () => {
  const chunk = (delta: object, finish: string | null = null) =>
    JSON.stringify({ id: "c1", choices: [{ index: 0, delta, finish_reason: finish }] });

  it("a stream cut before finish_reason is a network error, never done", () => {
    const events = reduceBytes(sse([chunk({ content: "partial" })]));
    const end = terminal(events);
    expect(end.type === "error" && end.error.kind).toBe("network");
  });

  it("a stream with no choices at all is invalid_response", () => {
    const end = terminal(reduceBytes(sse([JSON.stringify({ id: "x", choices: [] }), "[DONE]"])));
    expect(end.type === "error" && end.error.kind).toBe("invalid_response");
    const empty = terminal(reduceBytes(new Uint8Array()));
    expect(empty.type === "error" && empty.error.kind).toBe("invalid_response");
  });

  it("malformed JSON is invalid_response and stops the reduction", () => {
    const events = reduceBytes(sse(["{not json", chunk({ content: "late" })]));
    const end = terminal(events);
    expect(end.type === "error" && end.error.kind).toBe("invalid_response");
    expect(events.some((e) => e.type === "text_delta")).toBe(false);
  });

  it("an error object mid-stream is classified", () => {
    const body = JSON.stringify({
      error: { message: "Rate limit exceeded: free-models-per-min", code: 429 },
    });
    const end = terminal(reduceBytes(sse([chunk({ content: "a" }), body])));
    expect(end.type === "error" && end.error.kind).toBe("rate_limit");
  });

  it("accepts the `reasoning` field name used by some routes", () => {
    const m = doneMessage(
      reduceBytes(sse([chunk({ reasoning: "hm" }), chunk({ content: "ok" }, "stop"), "[DONE]"])),
    );
    expect(m.parts.map((p) => p.type)).toEqual(["reasoning", "text"]);
  });

  it("makes up a unique call id when the provider sends none, and waits for the name", () => {
    const events = reduceBytes(
      sse([
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { name: "f", arguments: "1}" } }] }),
        chunk({}, "tool_calls"),
        "[DONE]",
      ]),
    );
    const m = doneMessage(events);
    const call = m.parts[0];
    expect(call?.type === "toolCall" && call.argumentsJson).toBe('{"a":1}');
    expect(call?.type === "toolCall" && call.callId).toMatch(/^call_iris_/);
    expect(call?.type === "toolCall" && call.providerIds).toBeUndefined();
  });

  it("reduces 10,000 deltas into one text part", () => {
    const lines = Array.from({ length: 10_000 }, () => chunk({ content: "ab" }));
    lines.push(chunk({}, "stop"), "[DONE]");
    const m = doneMessage(reduceBytes(sse(lines), 4096));
    expect(m.parts[0]?.type === "text" && m.parts[0].text.length).toBe(20_000);
  });
});
