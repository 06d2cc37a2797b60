// Tool progress while Iris's own tools run, as standard clients receive it (SPEC E3): readable
// text in Responses streams that the official SDK's responses.stream() accumulator accepts, and
// the named events of chat completion streams, on by default in a form the official SDK and the
// `ai` SDK pass over.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { streamText } from "ai";
import type OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ALICE, type Harness, sentBodies, startHarness } from "./helpers.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const runEcho = () =>
  h.fake.enqueue(
    { toolCalls: [{ name: "terminal", arguments: { command: "echo from-the-tool" } }] },
    { text: "all done" },
  );

describe("Responses streams", () => {
  it("show tool progress as readable text the SDK accumulates; the stored conversation has none of it", async () => {
    runEcho();
    const events: { type: string; sequence_number: number }[] = [];
    const stream = h.client().responses.stream({ model: "iris", input: "run it" });
    stream.on("event", (e) => events.push(e));
    const final = await stream.finalResponse();
    expect(final.status).toBe("completed");
    expect(final.output_text).toContain("<details>");
    expect(final.output_text).toMatch(/<summary>🔧 terminal: .*echo from-the-tool.*<\/summary>/);
    expect(final.output_text).toContain("✓ done\n</details>");
    expect(final.output_text.endsWith("all done")).toBe(true);
    const seq = events.map((e) => e.sequence_number);
    expect(seq).toEqual([...seq].sort((a, b) => a - b));
    expect(new Set(seq).size).toBe(seq.length);
    expect(events.some((e) => e.type.startsWith("iris."))).toBe(false);
    expect(sentBodies(h.fake)[1]).toContain("from-the-tool");

    h.fake.enqueue({ text: "again" });
    await h.client().responses.create({ model: "iris", input: "and?", previous_response_id: final.id });
    const third = sentBodies(h.fake)[2] ?? "";
    expect(third).toContain("all done");
    expect(third).not.toContain("<details>");
  });

  it("X-Iris-Tool-Progress: off leaves only the answer; X-Iris-Events: on adds typed iris.tool.progress events; a keep-alive goes out", async () => {
    runEcho();
    const quiet = await h
      .client()
      .responses.stream({ model: "iris", input: "run it" }, { headers: { "X-Iris-Tool-Progress": "off" } })
      .finalResponse();
    expect(quiet.output_text).toBe("all done");

    runEcho();
    const res = await fetch(`${h.baseURL}/responses`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${ALICE}`,
        "content-type": "application/json",
        "x-iris-events": "on",
      },
      body: JSON.stringify({ model: "iris", input: "run it", stream: true }),
    });
    const raw = await res.text();
    expect(raw).toContain(": keepalive\n\n"); // at the tool's start
    const blocks = raw.split("\n\n").filter((b) => b.startsWith("event: "));
    const parsed = blocks.map((b) => JSON.parse(b.split("\ndata: ")[1] ?? "{}"));
    const progress = parsed.filter((e) => e.type === "iris.tool.progress");
    expect(progress.map((p) => p.phase)).toEqual(["before", "after"]);
    expect(progress[0]).toMatchObject({ tool: "terminal" });
    expect(blocks.filter((b) => b.startsWith("event: iris.tool.progress\n"))).toHaveLength(2);
    const seq = parsed.map((e) => e.sequence_number);
    expect(seq).toEqual(seq.map((_, i) => i));
    expect(parsed.at(-1)?.type).toBe("response.completed");
  });
});

describe("chat completion streams", () => {
  it("show a call's main argument, never raw JSON or an absolute path of the server", async () => {
    const path = `${h.home.path}/serve/requests/r1/notes.txt`;
    h.fake.enqueue({ toolCalls: [{ name: "read_file", arguments: { path } }] }, { text: "read" });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    const stream = h.client().chat.completions.stream({
      model: "iris",
      messages: [{ role: "user", content: "read it" }],
    });
    stream.on("chunk", (c) => chunks.push(c));
    const content = (await stream.finalChatCompletion()).choices[0]?.message.content ?? "";
    expect(content).toContain("<summary>🔧 read_file: …/notes.txt</summary>");
    expect(content).not.toContain('{"path"');
    expect(JSON.stringify(chunks)).not.toContain(h.home.path);
  });

  it("carry the named events by default as chunks the official SDK's accumulator passes over", async () => {
    runEcho();
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    const stream = h.client().chat.completions.stream({
      model: "iris",
      messages: [{ role: "user", content: "run it" }],
      stream_options: { include_usage: true },
    });
    stream.on("chunk", (c) => chunks.push(c));
    const final = await stream.finalChatCompletion();
    const content = final.choices[0]?.message.content ?? "";
    expect(content).toContain("🔧 terminal");
    expect(content.endsWith("all done")).toBe(true);
    expect(final.choices[0]?.finish_reason).toBe("stop");
    expect(final.usage?.total_tokens).toBeGreaterThan(0);
    const named = chunks.filter((c) => "iris_tool_progress" in c || "iris_turn" in c);
    expect(named.map((c) => ("iris_tool_progress" in c ? "progress" : "turn"))).toEqual([
      "progress",
      "progress",
      "turn",
    ]);
    expect(named.every((c) => c.choices.length === 0 && c.object === "chat.completion.chunk")).toBe(true);
    expect(named[2]).toMatchObject({ iris_turn: { "x-iris-termination": "natural" } });
    // The finish chunk and the usage chunk stay last.
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
  });

  it("carry them in a form the ai SDK (openai-compatible) parses without an error", async () => {
    runEcho();
    const model = createOpenAICompatible({
      name: "iris",
      baseURL: h.baseURL,
      apiKey: ALICE,
      includeUsage: true,
    })("iris");
    const errors: unknown[] = [];
    const result = streamText({
      model,
      prompt: "run it",
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const text = await result.text;
    expect(errors).toEqual([]);
    expect(text).toContain("🔧 terminal");
    expect(text.endsWith("all done")).toBe(true);
    expect((await result.usage).totalTokens).toBeGreaterThan(0);
    expect(await result.finishReason).toBe("stop");
  });
});
