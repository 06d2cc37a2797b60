// `iris serve` behind a chat UI (Open WebUI, LibreChat), through the official openai SDK with its
// retries off (SPEC E3): one key for all the UI's users, its own streamed tool-progress text sent
// back as history, background prompts (titles, tags) that must not run the agent, and 400s a
// person can read.
import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Harness, sentBodies, startHarness } from "./helpers.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

type Sent = { messages: { role: string; content?: unknown }[]; tools?: unknown[] };
const bodyOf = (i: number) => h.fake.requests[i]?.body as Sent;

describe("iris serve behind a chat UI", () => {
  it("20 requests at once on one key with the default limits all succeed: those over 8 wait their turn", async () => {
    // The first 8 are held until all 8 run at once; the rest wait in the key's queue meanwhile.
    let arrived = 0;
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    h.fake.setHandler(async () => {
      arrived += 1;
      if (arrived === 8) open();
      if (arrived <= 8) await gate;
      return { text: `answer ${arrived}` };
    });
    const client = h.client();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.chat.completions.create({ model: "iris", messages: [{ role: "user", content: `q${i}` }] }),
      ),
    );
    expect(answers.map((a) => a.choices[0]?.finish_reason)).toEqual(Array(20).fill("stop"));
    expect(h.fake.requests).toHaveLength(20);
  });

  it("a history holding Iris's own <details> progress blocks reaches the model without them", async () => {
    h.fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: "echo hi" } }] },
      { text: "It printed hi." },
    );
    const stream = await h.client().chat.completions.create({
      model: "iris",
      stream: true,
      messages: [{ role: "user", content: "run echo hi" }],
    });
    let shown = "";
    for await (const chunk of stream) shown += chunk.choices[0]?.delta?.content ?? "";
    expect(shown).toContain("<details>");
    // The UI stores what it showed and sends it back with the next question.
    h.fake.enqueue({ text: "You asked me to run echo." });
    await h.client().chat.completions.create({
      model: "iris",
      messages: [
        { role: "user", content: "run echo hi" },
        { role: "assistant", content: shown },
        { role: "user", content: "what did you do?" },
      ],
    });
    const sent = bodyOf(2).messages.find((m) => m.role === "assistant");
    expect(sent?.content).toBe("It printed hi.");
    expect(sentBodies(h.fake)[2]).not.toContain("<details>");
    expect(sentBodies(h.fake)[2]).not.toContain("🔧");
  });

  it("iris/chat and tool_choice none offer the model no tools: a title prompt runs nothing", async () => {
    const listed = await h.client().models.list();
    expect(listed.data.map((m) => m.id)).toContain("iris/chat");
    h.fake.enqueue({ text: "Greeting" }, { text: "Greeting 2" }, { text: "with tools" });
    const title = await h.client().chat.completions.create({
      model: "iris/chat",
      messages: [{ role: "user", content: "Generate a 3-word title for: hello there" }],
    });
    expect(title.choices[0]?.message.content).toBe("Greeting");
    expect(bodyOf(0).tools).toBeUndefined();
    const none = await h.client().chat.completions.create({
      model: "iris",
      tool_choice: "none",
      messages: [{ role: "user", content: "Generate tags" }],
    });
    expect(none.choices[0]?.message.content).toBe("Greeting 2");
    expect(bodyOf(1).tools).toBeUndefined();
    // The agent model still has its tools.
    await h.client().chat.completions.create({ model: "iris", messages: [{ role: "user", content: "hi" }] });
    expect(bodyOf(2).tools?.length).toBeGreaterThan(0);
  });

  it("a bad body's 400 says what is wrong in plain words", async () => {
    const client = h.client();
    const error = async (body: unknown) => {
      try {
        await client.chat.completions.create(body as OpenAI.ChatCompletionCreateParamsNonStreaming);
      } catch (err) {
        expect(err).toBeInstanceOf(OpenAI.BadRequestError);
        return (err as InstanceType<typeof OpenAI.BadRequestError>).error as {
          message: string;
          param: string;
        };
      }
      throw new Error("no error");
    };
    const role = await error({ model: "iris", messages: [{ role: "wizard", content: "b" }] });
    expect(role).toMatchObject({ param: "messages[0].role" });
    expect(role.message).toBe(
      'messages[0].role must be one of "system", "developer", "user", "assistant", "tool" (got "wizard")',
    );
    const empty = await error({ model: "iris", messages: [] });
    expect(empty.message).toBe("messages needs at least 1 item");
    const missing = await error({ messages: [{ role: "user", content: "x" }] });
    expect(missing.message).toBe("model is required (a string)");
    for (const e of [role, empty, missing]) expect(e.message).not.toMatch(/Invalid|Too small|expected/);
  });
});
