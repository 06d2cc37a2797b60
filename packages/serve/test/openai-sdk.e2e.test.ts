// The official `openai` SDK (6.x) against `iris serve` on a free port, with the fake LLM server
// behind it: the cases real scripts and front ends depend on (SPEC E3).

import { storeOf } from "@iris/host/testing";
import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BOB, type Harness, sentBodies, startHarness } from "./helpers.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const weather = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "The weather of a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe("the official openai SDK against iris serve", () => {
  it("lists the profile's agent as a model; a wrong key is an AuthenticationError", async () => {
    const page = await h.client().models.list();
    expect(page.data.map((m) => m.id)).toEqual(["iris", "iris/chat"]);
    await expect(h.client("sk-wrong").models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(h.client(BOB).models.list()).resolves.toBeDefined();
  });

  it("answers without streaming: usage fields, the cost in a header, the client's system text, nothing stored", async () => {
    h.fake.enqueue({ text: "안녕하세요", usage: { input: 1000, output: 50 } });
    const { data, response } = await h
      .client()
      .chat.completions.create({
        model: "iris",
        messages: [
          { role: "system", content: "Answer in Korean." },
          { role: "user", content: "hi" },
        ],
        temperature: 0.7,
        user: "u-1",
      })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe("안녕하세요");
    expect(data.choices[0]?.finish_reason).toBe("stop");
    expect(data.usage).toMatchObject({ prompt_tokens: 1000, completion_tokens: 50, total_tokens: 1050 });
    // gpt-4.1-mini: $0.40 / $1.60 per million tokens.
    expect(Number(response.headers.get("x-iris-cost-usd"))).toBeCloseTo(0.00048, 8);
    expect(response.headers.get("x-iris-session-id")).toBeNull();
    expect(sentBodies(h.fake)[0]).toContain("Answer in Korean.");
    expect(await storeOf(h.server.deps.iris).listSessions({ limit: 10 })).toEqual([]);
    expect(h.fake.violations).toEqual([]);
  });

  it("streams chunks with include_usage: usage null on each, one final choices:[] chunk, then [DONE]", async () => {
    h.fake.enqueue({ text: "one two three four", usage: { input: 10, output: 4 }, chunkSize: 4 });
    const stream = await h.client().chat.completions.create({
      model: "iris",
      messages: [{ role: "user", content: "count" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const text = chunks.flatMap((c) => c.choices.map((ch) => ch.delta.content ?? "")).join("");
    expect(text).toBe("one two three four");
    expect(chunks.filter((c) => (c.choices[0]?.delta.content ?? "") !== "").length).toBeGreaterThan(1);
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 });
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("stop");
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
  });

  it("returns a call of the client's own tool as standard tool_calls, and the next request's tool message continues the turn", async () => {
    h.fake.enqueue({ toolCalls: [{ name: "get_weather", arguments: { city: "서울" } }] }, { text: "맑아요" });
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: "user", content: "서울 날씨?" },
    ];
    const first = await h
      .client()
      .chat.completions.stream({ model: "iris", messages, tools: [weather] })
      .finalChatCompletion();
    const choice = first.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    const call = choice?.message.tool_calls?.[0];
    expect(call?.type).toBe("function");
    expect(call?.type === "function" ? call.function : undefined).toEqual({
      name: "get_weather",
      arguments: '{"city":"서울"}',
    });
    // Offered next to Iris's own tools.
    const offered = JSON.parse(sentBodies(h.fake)[0] ?? "{}").tools.map(
      (t: { function: { name: string } }) => t.function.name,
    );
    expect(offered).toContain("get_weather");
    expect(offered).toContain("terminal");
    // Profile-wide memory and session search are not offered to API keys (serve.shared_memory).
    expect(offered).not.toContain("memory");
    expect(offered).not.toContain("session_search");
    const second = await h.client().chat.completions.create({
      model: "iris",
      messages: [
        ...messages,
        choice!.message,
        { role: "tool", tool_call_id: call!.id, content: "맑음, 21도" },
      ],
      tools: [weather],
    });
    expect(second.choices[0]?.message.content).toBe("맑아요");
    expect(h.fake.requests).toHaveLength(2);
    const sent = JSON.parse(sentBodies(h.fake)[1] ?? "{}");
    const toolMsg = sent.messages.find((m: { role: string }) => m.role === "tool");
    expect(toolMsg.content).toContain("맑음, 21도");
    expect(h.fake.violations).toEqual([]);
  });

  it("runs Iris's own tools on the server and shows their progress as readable text", async () => {
    h.fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: "echo served-by-iris" } }] },
      { text: "all done" },
    );
    const stream = await h.client().chat.completions.create({
      model: "iris",
      messages: [{ role: "user", content: "run it" }],
      stream: true,
    });
    let text = "";
    for await (const chunk of stream) {
      // Named events reach the SDK's caller only as chunks that change nothing.
      expect(chunk.object).toBe("chat.completion.chunk");
      if (chunk.choices.length === 0)
        expect(Object.keys(chunk).some((k) => k.startsWith("iris_"))).toBe(true);
      text += chunk.choices[0]?.delta.content ?? "";
    }
    expect(text).toContain("<details>");
    expect(text).toContain("🔧 terminal");
    expect(text).toContain("✓ done");
    expect(text.endsWith("all done")).toBe(true);
    expect(sentBodies(h.fake)[1]).toContain("served-by-iris");
  });

  it("responses.create, then responses.stream().finalResponse() with previous_response_id", async () => {
    h.fake.enqueue({ text: "noted: 7" }, { text: "it was 7" });
    const r1 = await h.client().responses.create({ model: "iris", input: "remember the number 7" });
    expect(r1.status).toBe("completed");
    expect(r1.output_text).toBe("noted: 7");
    expect(r1.usage?.total_tokens).toBeGreaterThan(0);
    const events: string[] = [];
    const stream = h
      .client()
      .responses.stream({ model: "iris", input: "which number?", previous_response_id: r1.id });
    stream.on("event", (e) => events.push(e.type));
    const final = await stream.finalResponse();
    expect(final.status).toBe("completed");
    expect(final.output_text).toBe("it was 7");
    expect(events.slice(0, 4)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
    ]);
    expect(events.at(-1)).toBe("response.completed");
    const second = sentBodies(h.fake)[1] ?? "";
    expect(second).toContain("remember the number 7");
    expect(second).toContain("noted: 7");
    // Another API key cannot continue alice's response.
    await expect(
      h.client(BOB).responses.create({ model: "iris", input: "and?", previous_response_id: r1.id }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("returns the client's function calls as native function_call items and continues with function_call_output", async () => {
    h.fake.enqueue({ toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] }, { text: "sunny" });
    const tools = [
      {
        type: "function" as const,
        name: "get_weather",
        parameters: weather.function.parameters,
        strict: false,
      },
    ];
    const r1 = await h.client().responses.create({ model: "iris", input: "weather in Paris?", tools });
    const call = r1.output.find((i) => i.type === "function_call");
    expect(call).toMatchObject({ type: "function_call", name: "get_weather", arguments: '{"city":"Paris"}' });
    const r2 = await h.client().responses.create({
      model: "iris",
      previous_response_id: r1.id,
      input: [
        {
          type: "function_call_output",
          call_id: call?.type === "function_call" ? call.call_id : "",
          output: "sunny, 25C",
        },
      ],
      tools,
    });
    expect(r2.output_text).toBe("sunny");
    expect(sentBodies(h.fake)[1]).toContain("sunny, 25C");
  });

  it("an abort mid-stream interrupts the turn on the server, and nothing partial is stored", async () => {
    h.fake.enqueue({ fault: "stall" });
    const ended = h.nextEvent((e) => e.name === "turn_completed");
    const controller = new AbortController();
    const { data: stream, response } = await h
      .client()
      .chat.completions.create(
        { model: "iris", messages: [{ role: "user", content: "a long task" }], stream: true },
        { signal: controller.signal, headers: { "X-Iris-Session-Id": "new" } },
      )
      .withResponse();
    const sessionId = response.headers.get("x-iris-session-id");
    expect(sessionId).toBeTruthy();
    for await (const _chunk of stream) controller.abort();
    const e = await ended;
    expect(e.name === "turn_completed" ? e.payload.reason : "").toBe("user_cancelled");
    const roles = (await storeOf(h.server.deps.iris).activePath(sessionId ?? "")).map((n) => n.message?.role);
    expect(roles).toEqual(["user"]);
  });
});
