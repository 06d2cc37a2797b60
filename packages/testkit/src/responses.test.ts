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

const INCLUDE = { include: ["reasoning.encrypted_content"], store: false };

async function stream(extra: Record<string, unknown> = {}): Promise<Ev[]> {
  const res = await post(fake, "responses", minimalBody("responses", true, extra));
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const events = await sseJson(res);
  for (const [i, e] of events.entries()) {
    expect(e.event).toBe(e.json.type);
    expect(e.json.sequence_number).toBe(i);
  }
  return events;
}

const types = (events: Ev[]) => events.map((e) => e.json.type);
const joined = (events: Ev[], type: string) =>
  events
    .filter((e) => e.json.type === type)
    .map((e) => e.json.delta)
    .join("");

describe("responses, streaming", () => {
  it("streams a text message with content_part.added before the first output_text.delta", async () => {
    fake.enqueue({ text: "Hello from responses", usage: { input: 30, output: 5, cacheRead: 12 } });
    const events = await stream();
    const t = types(events);
    expect(t.slice(0, 4)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
    ]);
    expect(t.indexOf("response.content_part.added")).toBeLessThan(t.indexOf("response.output_text.delta"));
    expect(joined(events, "response.output_text.delta")).toBe("Hello from responses");
    const done = events.find((e) => e.json.type === "response.output_text.done");
    expect(done?.json.text).toBe("Hello from responses");
    expect(t.at(-1)).toBe("response.completed");
    const response = events.at(-1)?.json.response as Record<string, unknown>;
    expect(response.status).toBe("completed");
    expect(response.usage).toEqual({
      input_tokens: 30,
      input_tokens_details: { cached_tokens: 12 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 35,
    });
    expect((response.output as { type: string }[]).map((o) => o.type)).toEqual(["message"]);
  });

  it("streams parallel function calls with fc_ item ids, call_ ids and argument deltas", async () => {
    fake.enqueue({
      toolCalls: [
        { name: "read", arguments: { path: "/etc/hosts" } },
        { name: "grep", arguments: { pattern: "x" } },
      ],
    });
    const events = await stream();
    const added = events
      .filter((e) => e.json.type === "response.output_item.added")
      .map((e) => e.json.item as Record<string, string>);
    expect(added.map((i) => [i.type, i.name])).toEqual([
      ["function_call", "read"],
      ["function_call", "grep"],
    ]);
    for (const item of added) {
      expect(item.id).toMatch(/^fc_/);
      expect(item.call_id).toMatch(/^call_/);
    }
    const argsOf = (itemId: string | undefined) =>
      events
        .filter((e) => e.json.type === "response.function_call_arguments.delta" && e.json.item_id === itemId)
        .map((e) => e.json.delta)
        .join("");
    expect(JSON.parse(argsOf(added[0]?.id))).toEqual({ path: "/etc/hosts" });
    expect(JSON.parse(argsOf(added[1]?.id))).toEqual({ pattern: "x" });
    const argDone = events.filter((e) => e.json.type === "response.function_call_arguments.done");
    expect(argDone.map((e) => e.json.arguments)).toEqual(['{"path":"/etc/hosts"}', '{"pattern":"x"}']);
  });

  it("streams a reasoning item with encrypted_content and a summary", async () => {
    fake.enqueue({ reasoning: "step by step", text: "ok", usage: { reasoning: 4 } });
    const events = await stream(INCLUDE);
    const item = events.find((e) => e.json.type === "response.output_item.done")?.json.item as Record<
      string,
      unknown
    >;
    expect(item.type).toBe("reasoning");
    expect(item.id).toMatch(/^rs_/);
    expect(typeof item.encrypted_content).toBe("string");
    expect(item.summary).toEqual([{ type: "summary_text", text: "step by step" }]);
    expect(joined(events, "response.reasoning_summary_text.delta")).toBe("step by step");
    const usage = (events.at(-1)?.json.response as { usage: Record<string, unknown> } | undefined)?.usage;
    expect(usage).toBeDefined();
    expect(usage?.output_tokens_details).toEqual({ reasoning_tokens: 4 });
  });

  it("streams a refusal as a refusal content part; max_tokens ends with response.incomplete", async () => {
    fake.enqueue({ refusal: "Sorry, no." }, { text: "trunc", stopReason: "max_tokens" });
    const refused = await stream();
    const part = refused.find((e) => e.json.type === "response.content_part.added")?.json.part;
    expect(part).toEqual({ type: "refusal", refusal: "" });
    expect(joined(refused, "response.refusal.delta")).toBe("Sorry, no.");
    const cut = await stream();
    expect(cut.at(-1)?.json.type).toBe("response.incomplete");
    expect(cut.at(-1)?.json.response).toMatchObject({
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
    });
  });
});

describe("responses, non-streaming", () => {
  it("returns the response object with reasoning, message and function calls in order", async () => {
    fake.enqueue({
      id: "resp_fixed",
      reasoning: "r",
      text: "t",
      toolCalls: [{ name: "f", arguments: { a: 1 }, id: "call_given" }],
      usage: { input: 10, output: 3, cacheRead: 4, reasoning: 1 },
    });
    const res = await post(fake, "responses", minimalBody("responses", false));
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      id: "resp_fixed",
      object: "response",
      status: "completed",
      model: "gpt-fake",
    });
    const output = body.output as Record<string, unknown>[];
    expect(output.map((o) => o.type)).toEqual(["reasoning", "message", "function_call"]);
    expect(output[1]?.content).toEqual([{ type: "output_text", text: "t", annotations: [], logprobs: [] }]);
    expect(output[2]).toMatchObject({
      call_id: "call_given",
      name: "f",
      arguments: '{"a":1}',
      status: "completed",
    });
    expect(body.usage).toMatchObject({ input_tokens_details: { cached_tokens: 4 }, output_tokens: 3 });
  });

  it("returns a refusal part", async () => {
    fake.enqueue({ refusal: "Nope" });
    const res = await post(fake, "responses", minimalBody("responses", false));
    const output = ((await res.json()) as { output: { content: unknown[] }[] }).output;
    expect(output[0]?.content).toEqual([{ type: "refusal", refusal: "Nope" }]);
  });
});
