import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { StreamEvent } from "../../events.js";
import type { AssistantMessage, Origin } from "../../types.js";
import type { SseEvent } from "../adapter.js";
import { SseParser } from "../sse.js";
import { createAnthropicReducer } from "./reducer.js";

const origin: Origin = { provider: "anthropic", apiMode: "anthropic_messages", model: "claude-sonnet-4-5" };

function fixture(name: string): SseEvent[] {
  const parser = new SseParser();
  const text = readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
  return [...parser.push(text), ...parser.end()];
}

function reduce(events: SseEvent[]): StreamEvent[] {
  const r = createAnthropicReducer(origin);
  return [...events.flatMap((e) => r.push(e)), ...r.end()];
}

function doneMessage(events: StreamEvent[]): AssistantMessage {
  const last = events[events.length - 1];
  if (last?.type !== "done") throw new Error(`expected done, got ${JSON.stringify(last)}`);
  return last.message;
}

const terminals = (events: StreamEvent[]) => events.filter((e) => e.type === "done" || e.type === "error");

describe("anthropic reducer on recorded fixtures", () => {
  it("streams text, ignores ping, and ends with one done", () => {
    const events = reduce(fixture("text.sse"));
    expect(events.map((e) => e.type)).toEqual([
      "start",
      "text_start",
      "text_delta",
      "text_delta",
      "text_end",
      "done",
    ]);
    const m = doneMessage(events);
    expect(m.parts).toEqual([{ type: "text", text: "Hello, world!" }]);
    expect(m.stopReason).toBe("end");
    expect(m.responseId).toBe("msg_01Text");
    expect(m.usage).toEqual({
      inputTokens: 12,
      outputTokens: 6,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
  });

  it("accumulates input_json_delta per tool_use block; an empty input becomes {}", () => {
    const m = doneMessage(reduce(fixture("tool-calls.sse")));
    expect(m.stopReason).toBe("tool_calls");
    expect(m.parts).toEqual([
      { type: "text", text: "Reading both." },
      {
        type: "toolCall",
        callId: "toolu_01A",
        name: "read_file",
        argumentsJson: '{"path": "a.txt"}',
        providerIds: { callId: "toolu_01A" },
      },
      {
        type: "toolCall",
        callId: "toolu_01B",
        name: "list_dir",
        argumentsJson: "{}",
        providerIds: { callId: "toolu_01B" },
      },
    ]);
  });

  it("keeps thinking with its signature and redacted thinking as raw blocks", () => {
    const events = reduce(fixture("thinking.sse"));
    const m = doneMessage(events);
    expect(m.parts).toEqual([
      {
        type: "reasoning",
        text: "Let me work this out.",
        raw: {
          type: "thinking",
          thinking: "Let me work this out.",
          signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxSIG",
        },
      },
      {
        type: "reasoning",
        text: "",
        raw: { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT" },
      },
      { type: "text", text: "27" },
    ]);
    expect(events.filter((e) => e.type === "reasoning_delta")).toHaveLength(2);
  });

  it("maps stop_reason refusal", () => {
    expect(doneMessage(reduce(fixture("refusal.sse"))).stopReason).toBe("refusal");
  });

  it("adds cache reads and writes into inputTokens and keeps them apart too", () => {
    const m = doneMessage(reduce(fixture("cache-usage.sse")));
    expect(m.usage).toEqual({
      inputTokens: 21 + 188 + 1800,
      outputTokens: 3,
      cacheReadTokens: 1800,
      cacheWriteTokens: 188,
      reasoningTokens: 0,
    });
    expect(m.stopReason).toBe("max_tokens");
  });

  it("turns an overloaded_error event into a retryable server error and no done", () => {
    const events = reduce(fixture("overloaded.sse"));
    expect(terminals(events)).toEqual([
      {
        type: "error",
        error: expect.objectContaining({ kind: "server", retryable: true, code: "overloaded_error" }),
      },
    ]);
  });

  it("maps rate_limit_error and a too-long prompt to their kinds", () => {
    const ev = (type: string, message: string): SseEvent => ({
      event: "error",
      data: JSON.stringify({ type: "error", error: { type, message } }),
    });
    expect(terminals(reduce([ev("rate_limit_error", "slow down")]))[0]).toMatchObject({
      error: { kind: "rate_limit" },
    });
    expect(
      terminals(reduce([ev("invalid_request_error", "prompt is too long: 210000 tokens > 200000")]))[0],
    ).toMatchObject({
      error: { kind: "context_overflow" },
    });
  });

  it("reports a stream cut before message_stop as a network error, never a done", () => {
    const events = reduce(fixture("text.sse").slice(0, -1));
    expect(events.some((e) => e.type === "done")).toBe(false);
    expect(terminals(events)).toEqual([
      { type: "error", error: expect.objectContaining({ kind: "network" }) },
    ]);
  });

  it("reports a finished reply with no content as invalid_response", () => {
    const all = fixture("text.sse");
    const events = reduce([all[0]!, ...all.slice(-2)]);
    expect(terminals(events)).toEqual([
      { type: "error", error: expect.objectContaining({ kind: "invalid_response" }) },
    ]);
  });

  it("reduces 10,000 deltas into the exact text", () => {
    const r = createAnthropicReducer(origin);
    const out: StreamEvent[] = [];
    const push = (data: unknown) => out.push(...r.push({ data: JSON.stringify(data) }));
    push({ type: "message_start", message: { id: "m", usage: { input_tokens: 1 } } });
    push({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
    for (let i = 0; i < 10_000; i++) {
      push({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: `${i % 10}` } });
    }
    push({ type: "content_block_stop", index: 0 });
    push({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 10_000 } });
    push({ type: "message_stop" });
    expect(doneMessage(out).parts[0]).toEqual({ type: "text", text: "0123456789".repeat(1000) });
  });
});
