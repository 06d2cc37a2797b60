// Layer (a): every way an Iris turn can stop, as the SDK's own client sees it: the ACP stop reason
// the protocol defines for it and a message the editor shows. Budgets come from config.yaml, as in
// the CLI; the model is testkit's fake LLM server.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentText, editor } from "./harness.js";

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-acp-stops");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

const readNotes = { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] };
const sleep = (seconds: number) => ({
  toolCalls: [{ name: "terminal", arguments: { command: `sleep ${seconds}` } }],
});
const bodies = () => fake.requests.map((r) => r.rawBody.toString());

describe("budgets through ACP", () => {
  it("the round cap ends the prompt max_turn_requests, says so, and the session goes on", async () => {
    const e = editor(fake, dir, { config: "agent: {max_rounds: 2}\n" });
    writeFileSync(join(e.work, "notes.txt"), "alpha\n");
    fake.enqueue(readNotes, readNotes, { text: "next turn works" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      expect((await s.prompt("read forever")).stopReason).toBe("max_turn_requests");
      expect(agentText(e.updates)).toMatch(/Stopped after 2 rounds \(max_rounds is 2\)/);
      expect(fake.requests).toHaveLength(2);
      expect((await s.prompt("go on")).stopReason).toBe("end_turn");
      expect(bodies()[2]).toContain("read forever");
    });
  });

  it("the turn's time budget ends the prompt max_turn_requests with the budget named", async () => {
    const e = editor(fake, dir, { config: "agent: {time_budget_seconds: 0.3}\n" });
    fake.enqueue(sleep(1), { text: "never asked for" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      expect((await s.prompt("take your time")).stopReason).toBe("max_turn_requests");
      expect(agentText(e.updates)).toMatch(/time budget/);
      expect(bodies().join("\n")).not.toContain("never asked for");
    });
  });

  it("the time budget also ends a model call that never answers, as the budget", async () => {
    const e = editor(fake, dir, { config: "agent: {time_budget_seconds: 0.5}\n" });
    fake.enqueue({ fault: "stall" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      expect((await s.prompt("hello?")).stopReason).toBe("max_turn_requests");
      expect(agentText(e.updates)).toMatch(/the turn used its time budget/);
    });
  });

  it("the session's time budget stops this prompt and the next before any model call", async () => {
    const e = editor(fake, dir, { config: "agent: {session_budget_seconds: 0.3}\n" });
    fake.enqueue(sleep(1), { text: "never asked for" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      expect((await s.prompt("work")).stopReason).toBe("max_turn_requests");
      expect(agentText(e.updates)).toMatch(/in this session, its budget\. Start a new session/);
      const calls = fake.requests.length;
      expect((await s.prompt("more")).stopReason).toBe("max_turn_requests");
      expect(fake.requests).toHaveLength(calls);
    });
  });

  it("the session's cost budget stops the next prompt before it calls the model", async () => {
    // gpt-4o-mini's catalogue price: $0.15 per million input tokens.
    const e = editor(fake, dir, {
      configText:
        `model: {provider: openai, name: gpt-4o-mini}\n` +
        `providers: {openai: {base_url: '${fake.baseUrl}', api_mode: chat_completions}}\n` +
        "agent: {cost_budget_usd: 0.1}\n",
      env: { OPENAI_API_KEY: "sk-test-not-real-0000" },
    });
    fake.enqueue({ text: "that was expensive", usage: { input: 1_000_000, output: 0 } });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      expect((await s.prompt("spend")).stopReason).toBe("end_turn");
      expect((await s.prompt("spend more")).stopReason).toBe("max_turn_requests");
      expect(agentText(e.updates)).toMatch(/of the \$0\.10 cost budget/);
      expect(fake.requests).toHaveLength(1);
    });
  });
});

describe("token limits through ACP", () => {
  it("a reply cut at the output limit ends max_tokens, with or without text", async () => {
    const e = editor(fake, dir);
    fake.enqueue(
      { text: "the answer was cut mid", stopReason: "max_tokens" },
      { reasoning: "thinking and thinking", stopReason: "max_tokens" },
      { text: "fine" },
    );
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      expect((await s.prompt("long answer")).stopReason).toBe("max_tokens");
      expect(agentText(e.updates)).toContain("the answer was cut mid");
      // Only reasoning before the limit: no answer at all, and the editor reads why.
      expect((await s.prompt("think hard")).stopReason).toBe("max_tokens");
      expect(agentText(e.updates)).toMatch(/cut at the output token limit/);
      expect(fake.requests).toHaveLength(2); // not retried: the same request would be cut again
      expect((await s.prompt("short")).stopReason).toBe("end_turn");
    });
  });

  it("a conversation the context window cannot hold ends max_tokens with the reason shown", async () => {
    const e = editor(fake, dir);
    fake.setHandler(() => ({
      fault: "status",
      status: 400,
      body: {
        error: {
          message: "This model's maximum context length is 10 tokens",
          type: "invalid_request_error",
          code: "context_length_exceeded",
        },
      },
    }));
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      expect((await s.prompt("hello")).stopReason).toBe("max_tokens");
      expect(agentText(e.updates)).toMatch(/context/i);
    });
  });
});

describe("refusals through ACP", () => {
  it("ends refusal, shows why, and leaves the refused prompt out of what follows", async () => {
    const e = editor(fake, dir);
    fake.enqueue(
      { text: "first answer" },
      { refusal: "I will not help with that." },
      { text: "third answer" },
    );
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      expect((await s.prompt("first question")).stopReason).toBe("end_turn");
      expect((await s.prompt("forbidden question")).stopReason).toBe("refusal");
      expect(agentText(e.updates)).toContain("I will not help with that.");
      expect((await s.prompt("third question")).stopReason).toBe("end_turn");
      const third = bodies()[2] ?? "";
      expect(third).toContain("first question");
      expect(third).not.toContain("forbidden question");
      expect(third).not.toContain("I will not help");
    });
  });

  it("a refused first prompt leaves the conversation empty", async () => {
    const e = editor(fake, dir);
    fake.enqueue({ refusal: "No." }, { text: "sure" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      expect((await s.prompt("forbidden opening")).stopReason).toBe("refusal");
      expect((await s.prompt("a fair question")).stopReason).toBe("end_turn");
      const last = bodies().at(-1) ?? "";
      expect(last).toContain("a fair question");
      expect(last).not.toContain("forbidden opening");
    });
  });
});
