import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { StreamEvent } from "../../events.js";
import type { AssistantMessage, Origin } from "../../types.js";
import type { SseEvent } from "../adapter.js";
import { SseParser } from "../sse.js";
import { createResponsesReducer } from "./reducer.js";

const origin: Origin = { provider: "openai", apiMode: "responses", model: "gpt-5" };

function fixture(name: string): SseEvent[] {
  const parser = new SseParser();
  const text = readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
  return [...parser.push(text), ...parser.end()];
}

function reduce(events: SseEvent[]): StreamEvent[] {
  const r = createResponsesReducer(origin);
  return [...events.flatMap((e) => r.push(e)), ...r.end()];
}

function doneMessage(events: StreamEvent[]): AssistantMessage {
  const last = events[events.length - 1];
  if (last?.type !== "done") throw new Error(`expected done, got ${JSON.stringify(last)}`);
  return last.message;
}

function terminals(events: StreamEvent[]): StreamEvent[] {
  return events.filter((e) => e.type === "done" || e.type === "error");
}

describe("responses reducer on recorded fixtures", () => {
  it("streams text and maps usage with cached tokens inside inputTokens", () => {
    const events = reduce(fixture("text.sse"));
    expect(events[0]).toEqual({ type: "start" });
    expect(
      events.filter((e) => e.type === "text_delta").map((e) => (e.type === "text_delta" ? e.delta : "")),
    ).toEqual(["Hello", ", world", "!"]);
    expect(terminals(events)).toHaveLength(1);
    const m = doneMessage(events);
    expect(m.parts).toEqual([{ type: "text", text: "Hello, world!" }]);
    expect(m.stopReason).toBe("end");
    expect(m.responseId).toBe("resp_text_1");
    expect(m.usage).toEqual({
      inputTokens: 2006,
      outputTokens: 4,
      cacheReadTokens: 1920,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
  });

  it("keeps parallel function calls apart with call_id canonical and the item id aside", () => {
    const events = reduce(fixture("tool-calls.sse"));
    const m = doneMessage(events);
    expect(m.stopReason).toBe("tool_calls");
    expect(m.parts).toEqual([
      {
        type: "toolCall",
        callId: "call_A1",
        name: "read_file",
        argumentsJson: '{"path":"a.txt"}',
        providerIds: { callId: "call_A1", itemId: "fc_aaa" },
      },
      {
        type: "toolCall",
        callId: "call_B2",
        name: "list_dir",
        argumentsJson: '{"dir":"."}',
        providerIds: { callId: "call_B2", itemId: "fc_bbb" },
      },
    ]);
    const starts = events.filter((e) => e.type === "toolcall_start");
    expect(starts).toEqual([
      { type: "toolcall_start", index: 0, callId: "call_A1", name: "read_file" },
      { type: "toolcall_start", index: 1, callId: "call_B2", name: "list_dir" },
    ]);
    const deltas = events.filter((e) => e.type === "toolcall_delta" && e.index === 0);
    expect(deltas.map((e) => (e.type === "toolcall_delta" ? e.delta : "")).join("")).toBe('{"path":"a.txt"}');
  });

  it("keeps a reasoning item whole (id, encrypted_content) and shows its summaries", () => {
    const events = reduce(fixture("reasoning.sse"));
    const m = doneMessage(events);
    const [reasoning, text] = m.parts;
    expect(reasoning).toMatchObject({ type: "reasoning", text: "**Planning** the answer\n\nThen checking." });
    expect(reasoning?.type === "reasoning" && reasoning.raw).toMatchObject({
      type: "reasoning",
      id: "rs_111",
      encrypted_content: "gAAAAABencrypted==",
    });
    expect(text).toEqual({ type: "text", text: "42" });
    expect(m.usage.reasoningTokens).toBe(100);
    const streamed = events
      .filter((e) => e.type === "reasoning_delta")
      .map((e) => (e.type === "reasoning_delta" ? e.delta : ""))
      .join("");
    expect(streamed).toBe("**Planning** the answer\n\nThen checking.");
  });

  it("reports a refusal as stop reason refusal with its explanation", () => {
    const m = doneMessage(reduce(fixture("refusal.sse")));
    expect(m.stopReason).toBe("refusal");
    expect(m.refusal).toBe("I can't help with that.");
  });

  it("maps an incomplete reply for max_output_tokens to max_tokens", () => {
    const m = doneMessage(reduce(fixture("incomplete.sse")));
    expect(m.stopReason).toBe("max_tokens");
    expect(m.parts).toEqual([{ type: "text", text: "The list begins" }]);
  });

  it("turns an error event into a rate_limit error and nothing after it", () => {
    const events = reduce(fixture("error-event.sse"));
    expect(terminals(events)).toEqual([
      {
        type: "error",
        error: expect.objectContaining({ kind: "rate_limit", retryable: true, code: "rate_limit_exceeded" }),
      },
    ]);
  });

  it("turns response.failed into a server error", () => {
    const events = reduce(fixture("failed.sse"));
    expect(terminals(events)).toEqual([
      { type: "error", error: expect.objectContaining({ kind: "server", code: "server_error" }) },
    ]);
  });

  it("reports a stream cut before response.completed as a network error, never a done", () => {
    const all = fixture("text.sse");
    const events = reduce(all.slice(0, -1));
    expect(events.some((e) => e.type === "done")).toBe(false);
    expect(terminals(events)).toEqual([
      { type: "error", error: expect.objectContaining({ kind: "network" }) },
    ]);
  });

  it("reports a completed reply with nothing in it as invalid_response", () => {
    const events = reduce([
      {
        event: "response.completed",
        data: JSON.stringify({
          type: "response.completed",
          response: { id: "r", status: "completed", output: [] },
        }),
      },
    ]);
    expect(terminals(events)).toEqual([
      { type: "error", error: expect.objectContaining({ kind: "invalid_response" }) },
    ]);
  });

  it("reports malformed event data as invalid_response", () => {
    const events = reduce([{ event: "response.output_text.delta", data: "{not json" }]);
    expect(terminals(events)).toEqual([
      { type: "error", error: expect.objectContaining({ kind: "invalid_response" }) },
    ]);
  });

  it("reduces 10,000 deltas into the exact text", () => {
    const r = createResponsesReducer(origin);
    const delta = (i: number): SseEvent => ({
      event: "response.output_text.delta",
      data: JSON.stringify({
        type: "response.output_text.delta",
        output_index: 0,
        content_index: 0,
        delta: `${i % 10}`,
      }),
    });
    const out: StreamEvent[] = [];
    for (let i = 0; i < 10_000; i++) out.push(...r.push(delta(i)));
    out.push(
      ...r.push({
        data: JSON.stringify({ type: "response.completed", response: { status: "completed", output: [] } }),
      }),
    );
    const m = doneMessage(out);
    expect(m.parts[0]).toEqual({ type: "text", text: "0123456789".repeat(1000) });
  });
});
