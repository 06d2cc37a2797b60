import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm } from "./server.js";
import { minimalBody, post, sseJson } from "./test-client.js";
import type { FakeLlm } from "./types.js";

let fake: FakeLlm;
beforeEach(async () => {
  fake = await startFakeLlm();
});
afterEach(async () => {
  expect(fake.violations).toEqual([]);
  await fake.close();
});

type Ev = { event?: string; json: Record<string, unknown> };

const THINKING = { thinking: { type: "enabled", budget_tokens: 1024 } };

async function stream(extra: Record<string, unknown> = {}): Promise<Ev[]> {
  const res = await post(fake, "anthropic", minimalBody("anthropic", true, extra), {
    headers: { "x-api-key": "k" },
  });
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const events = await sseJson(res);
  for (const e of events) expect(e.event).toBe(e.json.type);
  return events;
}

const deltasOf = (events: Ev[], kind: string, field: string) =>
  events
    .map((e) => e.json.delta as Record<string, unknown> | undefined)
    .filter((d) => d?.type === kind)
    .map((d) => d?.[field])
    .join("");

describe("anthropic messages, streaming", () => {
  it("streams text between message_start and message_stop with a ping and end_turn", async () => {
    fake.enqueue({
      text: "Bonjour tout le monde",
      usage: { input: 100, output: 6, cacheRead: 70, cacheWrite: 20 },
    });
    const events = await stream();
    const types = events.map((e) => e.json.type);
    expect(types[0]).toBe("message_start");
    expect(types).toContain("ping");
    expect(types.slice(-2)).toEqual(["message_delta", "message_stop"]);
    expect(deltasOf(events, "text_delta", "text")).toBe("Bonjour tout le monde");
    const start = events[0]?.json.message as { usage: Record<string, number> };
    expect(start.usage).toMatchObject({
      input_tokens: 10,
      cache_read_input_tokens: 70,
      cache_creation_input_tokens: 20,
    });
    const delta = events.at(-2)?.json;
    expect(delta).toMatchObject({ delta: { stop_reason: "end_turn" }, usage: { output_tokens: 6 } });
  });

  it("streams parallel tool_use blocks with input_json_delta and stop_reason tool_use", async () => {
    fake.enqueue({
      text: "Using tools",
      toolCalls: [
        { name: "a", arguments: { q: "long query text" } },
        { name: "b", arguments: {} },
      ],
    });
    const events = await stream();
    const starts = events.filter((e) => e.json.type === "content_block_start");
    const blocks = starts.map((e) => e.json.content_block as Record<string, unknown>);
    expect(blocks.map((b) => b.type)).toEqual(["text", "tool_use", "tool_use"]);
    expect(blocks[1]).toMatchObject({ name: "a", input: {} });
    expect(String(blocks[1]?.id)).toMatch(/^toolu_/);
    const partial = (index: unknown) =>
      events
        .filter((e) => e.json.type === "content_block_delta" && e.json.index === index)
        .map((e) => (e.json.delta as { partial_json?: string }).partial_json ?? "")
        .join("");
    expect(JSON.parse(partial(starts[1]?.json.index))).toEqual({ q: "long query text" });
    expect(events.at(-2)?.json.delta).toMatchObject({ stop_reason: "tool_use" });
  });

  it("streams thinking with thinking_delta then signature_delta", async () => {
    fake.enqueue({ reasoning: "hmm, let me see", text: "ok" });
    const events = await stream(THINKING);
    const first = events.find((e) => e.json.type === "content_block_start")?.json.content_block;
    expect(first).toMatchObject({ type: "thinking", thinking: "" });
    expect(deltasOf(events, "thinking_delta", "thinking")).toBe("hmm, let me see");
    const sig = deltasOf(events, "signature_delta", "signature");
    expect(sig.length).toBeGreaterThan(0);
    const kinds = events.filter((e) => e.json.index === 0 && e.json.type === "content_block_delta");
    expect(kinds.at(-1)?.json.delta).toMatchObject({ type: "signature_delta" });
  });

  it("ends a refusal with stop_reason refusal and max_tokens with max_tokens", async () => {
    fake.enqueue({ refusal: "I won't.", stopReason: "refusal" }, { text: "abc", stopReason: "max_tokens" });
    const refused = await stream();
    expect(refused.at(-2)?.json.delta).toMatchObject({ stop_reason: "refusal" });
    const cut = await stream();
    expect(cut.at(-2)?.json.delta).toMatchObject({ stop_reason: "max_tokens" });
  });
});

describe("anthropic messages, non-streaming", () => {
  it("returns a message with thinking, text and tool_use blocks and split usage", async () => {
    fake.enqueue({
      reasoning: "think",
      text: "answer",
      toolCalls: [{ name: "t", arguments: '{"k":"v"}', id: "toolu_given" }],
      usage: { input: 40, output: 8, cacheRead: 30 },
    });
    const res = await post(fake, "anthropic", minimalBody("anthropic", false, THINKING), {
      headers: { authorization: "Bearer k" },
    });
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      type: "message",
      role: "assistant",
      stop_reason: "tool_use",
      model: "claude-fake",
    });
    const content = body.content as Record<string, unknown>[];
    expect(content.map((c) => c.type)).toEqual(["thinking", "text", "tool_use"]);
    expect(content[0]?.thinking).toBe("think");
    expect(typeof content[0]?.signature).toBe("string");
    expect(content[2]).toEqual({ type: "tool_use", id: "toolu_given", name: "t", input: { k: "v" } });
    expect(body.usage).toEqual({
      input_tokens: 10,
      cache_read_input_tokens: 30,
      cache_creation_input_tokens: 0,
      output_tokens: 8,
    });
  });

  it("returns a refusal as text with stop_reason refusal", async () => {
    fake.enqueue({ refusal: "No way." });
    const res = await post(fake, "anthropic", minimalBody("anthropic", false));
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.stop_reason).toBe("refusal");
    expect(body.content).toEqual([{ type: "text", text: "No way." }]);
  });
});
