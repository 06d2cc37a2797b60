// Issue 11: `model.reasoning` on Chat Completions routes, end to end through the app. Each fake
// server speaks one service's dialect and answers a parameter that service does not take (or a
// tool-call message without the reasoning it requires back) with that service's 400.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, type FakeLlmOptions, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { boot } from "../src/app/boot.js";
import type { IrisProcess } from "../src/app/process.js";

const open: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c();
});

async function setUp(
  provider: string,
  model: string,
  fakeOpts: FakeLlmOptions,
  reasoning: string,
): Promise<{ fake: FakeLlm; run: (text: string) => Promise<string> }> {
  const fake = await startFakeLlm(fakeOpts);
  const dir: TempDir = tempDir("iris-chat-reasoning");
  open.push(
    () => fake.close(),
    () => dir.cleanup(),
  );
  writeFileSync(join(dir.path, "notes.txt"), "the notes\n");
  writeFileSync(
    join(dir.path, "config.yaml"),
    [
      `model: { provider: ${provider}, name: ${model}${reasoning ? `, reasoning: ${reasoning}` : ""} }`,
      `providers: { ${provider}: { base_url: "${fake.baseUrl}", api_mode: chat_completions, api_key: sk-test } }`,
      "",
    ].join("\n"),
  );
  const booted = await boot({
    env: { IRIS_HOME: dir.path },
    route: {},
    platform: "cli",
    source: "cli",
    cwd: dir.path,
  });
  if (!booted.ok) throw new Error(booted.message);
  const iris: IrisProcess = booted.process;
  open.push(() => iris.close());
  const session = booted.session;
  await session.startSession();
  return {
    fake,
    run: async (text) => {
      const r = await session.send(text);
      expect(r.reason).toBe("natural");
      return r.text;
    },
  };
}

const readNotes = {
  reasoning: "the notes first",
  toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }],
};
const bodies = (fake: FakeLlm) => fake.requests.map((r) => r.body as Record<string, unknown>);
const assistantOf = (body: Record<string, unknown> | undefined) =>
  ((body?.messages ?? []) as Record<string, unknown>[]).find((m) => m.role === "assistant");
const rejected = (fake: FakeLlm) => fake.violations.map((v) => v.rejected);

describe("model.reasoning on Chat Completions routes", () => {
  it("OpenRouter: reasoning.effort, and its signed reasoning_details back through a tool round", async () => {
    const { fake, run } = await setUp(
      "openrouter",
      "anthropic/claude-sonnet-4.6",
      { chatDialect: "openrouter" },
      "{ effort: low }",
    );
    fake.enqueue(readNotes, { text: "read" });
    expect(await run("what do the notes say?")).toBe("read");
    expect(rejected(fake)).toEqual([]);
    const [first, second] = bodies(fake);
    expect(first?.reasoning).toEqual({ effort: "low" });
    const assistant = assistantOf(second);
    expect(assistant?.reasoning_details).toEqual([
      expect.objectContaining({
        type: "reasoning.text",
        text: "the notes first",
        signature: expect.any(String),
      }),
    ]);
  });

  it("DeepSeek: thinking + reasoning_effort, and reasoning_content back on the tool-call message", async () => {
    const { fake, run } = await setUp(
      "deepseek",
      "deepseek-v4-flash",
      { chatDialect: "deepseek" },
      "{ effort: high }",
    );
    fake.enqueue(readNotes, { text: "read" });
    expect(await run("what do the notes say?")).toBe("read");
    expect(rejected(fake)).toEqual([]);
    const [first, second] = bodies(fake);
    expect(first).toMatchObject({ thinking: { type: "enabled" }, reasoning_effort: "high" });
    const assistant = assistantOf(second);
    expect(assistant?.reasoning_content).toBe("the notes first");
  });

  it("OpenAI: reasoning_effort only for a model the catalogue marks as reasoning", async () => {
    const reasoningModels = ["gpt-5"];
    const plain = await setUp("openai", "gpt-4.1", { reasoningModels }, "{ effort: high }");
    plain.fake.enqueue({ text: "ok" });
    await plain.run("hi");
    expect(rejected(plain.fake)).toEqual([]);
    expect(bodies(plain.fake)[0]).not.toHaveProperty("reasoning_effort");
    const thinking = await setUp("openai", "gpt-5", { reasoningModels }, "{ effort: high }");
    thinking.fake.enqueue({ text: "ok" });
    await thinking.run("hi");
    expect(rejected(thinking.fake)).toEqual([]);
    expect(bodies(thinking.fake)[0]?.reasoning_effort).toBe("high");
  });
});
