// A batch trajectory holds what the CLI's session holds for the same prompt and the same model
// replies (issue 18): the same turns, tool calls, results, usage, cost and model, field by field.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ShareGptTurn, type TrajectoryRow, toShareGpt } from "@iris/batch";
import { openStore, StoreConversation } from "@iris/host";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { routeArgs, runIris, tempHome } from "./helpers.js";

let fake: FakeLlm;
let home: ReturnType<typeof tempHome>;
beforeEach(async () => {
  fake = await startFakeLlm();
  home = tempHome();
});
afterEach(async () => {
  await fake.close();
  home.cleanup();
});

const script = () =>
  fake.enqueue(
    {
      reasoning: "I should look first.",
      toolCalls: [{ name: "terminal", arguments: { command: "echo same-output" } }],
      usage: { input: 1200, output: 40, cacheRead: 200 },
    },
    { text: "It printed same-output.", usage: { input: 1300, output: 12, cacheRead: 1000 } },
  );

/** Our call ids differ per run; everything else must not. */
const withoutIds = (v: string) => v.replace(/"tool_call_id":"[^"]+"/g, '"tool_call_id":"ID"');

describe("a batch row against the CLI session", () => {
  it("matches the CLI's stored session for the same prompt field by field", async () => {
    const prompt = "Run echo and tell me what it printed.";
    const work = join(home.home, "work");
    mkdirSync(work);
    script();
    const cli = await runIris(["-p", prompt, ...routeArgs(fake.baseUrl, "chat_completions")], {
      env: { IRIS_HOME: home.home },
      cwd: work,
    });
    expect(cli.code).toBe(0);

    script();
    const input = join(home.home, "in.jsonl");
    writeFileSync(input, `${JSON.stringify({ id: "same", prompt })}\n`);
    const out = join(home.home, "out.jsonl");
    const b = await runIris(["batch", input, "--out", out, ...routeArgs(fake.baseUrl, "chat_completions")], {
      env: { IRIS_HOME: home.home },
    });
    expect(b.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(b.code).toBe(0);
    expect(fake.violations).toEqual([]);
    const row = JSON.parse(readFileSync(out, "utf8").trim()) as TrajectoryRow & {
      conversations: ShareGptTurn[];
    };

    const store = openStore(join(home.home, "state.db"));
    const sessions = await store.listSessions({ limit: 10 });
    expect(sessions).toHaveLength(1); // the CLI's; the batch left nothing in state.db
    const session = sessions[0]!;
    const history = await (await StoreConversation.open(store, session.id)).history();
    const usageRows = await store.usageForSession(session.id);
    await store.close();
    const expected = toShareGpt(session.systemPrompt ?? "", history);

    expect(row.conversations.map((c) => c.from)).toEqual(expected.conversations.map((c) => c.from));
    expect(row.conversations.map((c) => c.from)).toEqual(["system", "human", "gpt", "tool", "gpt"]);
    // The frozen prompt names the platform's tools and the working directory, so it differs.
    expect(row.conversations[0]?.value.split("\n")[0]).toBe(expected.conversations[0]?.value.split("\n")[0]);
    for (let i = 1; i < expected.conversations.length; i++)
      expect(withoutIds(row.conversations[i]!.value), `turn ${i}`).toBe(
        withoutIds(expected.conversations[i]!.value),
      );
    expect(row.conversations[2]?.value).toMatch(/^<think>\nI should look first\.\n<\/think>\n<tool_call>/);
    expect(row.conversations[3]?.value).toContain("same-output");
    expect(row.tool_calls.map(({ id: _id, ...c }) => c)).toEqual(
      expected.toolCalls.map(({ id: _id, ...c }) => c),
    );
    expect(row.tool_stats).toEqual(expected.toolStats);
    const sum = (
      k: "inputTokens" | "outputTokens" | "cacheReadTokens" | "cacheWriteTokens" | "reasoningTokens",
    ) => usageRows.reduce((s, u) => s + u[k], 0);
    expect(row.usage).toEqual({
      input_tokens: sum("inputTokens"),
      output_tokens: sum("outputTokens"),
      cache_read_tokens: sum("cacheReadTokens"),
      cache_write_tokens: sum("cacheWriteTokens"),
      reasoning_tokens: sum("reasoningTokens"),
    });
    expect(row.usage.input_tokens).toBe(2500);
    expect(row.api_calls).toBe(usageRows.length);
    expect(row.cost_usd).toBeCloseTo(
      usageRows.reduce((s, u) => s + u.costUsd, 0),
      12,
    );
    expect(row.model).toBe(`${session.provider}/${session.model}`);
    expect(row).toMatchObject({
      id: "same",
      key: "same",
      status: "completed",
      termination_reason: "natural",
      rounds: 2,
    });
  });
});
