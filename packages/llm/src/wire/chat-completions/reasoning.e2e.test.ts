// Reasoning on Chat Completions routes, end to end through completeLlm against the fake server
// speaking each service's dialect: a route asked in another service's fields gets that
// service's 400, so a broken mapping fails here.
import { type FakeLlm, type FakeLlmOptions, startFakeLlm } from "@iris/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { getProvider } from "../../providers/index.js";
import type { Runtime } from "../../runtime.js";
import type { AssistantMessage, LlmRequest, Message } from "../../types.js";
import { ZERO_USAGE } from "../../types.js";
import { completeLlm } from "../stream.js";
import { fakeRuntime } from "../test/fake-route.js";

const open: FakeLlm[] = [];
afterEach(async () => {
  for (const f of open.splice(0)) await f.close();
});

async function route(providerId: string, opts: FakeLlmOptions): Promise<{ fake: FakeLlm; runtime: Runtime }> {
  const fake = await startFakeLlm(opts);
  open.push(fake);
  const def = getProvider(providerId);
  if (def === undefined) throw new Error(`no provider ${providerId}`);
  const runtime: Runtime = fakeRuntime(fake.baseUrl, {
    provider: def.id,
    apiMode: "chat_completions",
    model: "fake-model",
    apiKey: "sk-test",
    compat: def.compat,
  });
  return { fake, runtime };
}

async function ask(runtime: Runtime, messages: Message[], reasoning: LlmRequest["reasoning"]) {
  const result = await completeLlm(
    runtime,
    { model: "fake-model", messages, reasoning },
    { idleTimeoutMs: 20_000 },
  );
  if (!result.ok) throw new Error(result.error.message);
  return result.message;
}

const body = (fake: FakeLlm, i = -1) => fake.requests.at(i)?.body as Record<string, unknown>;
const rejected = (fake: FakeLlm) => fake.violations.map((v) => v.rejected);

function foreignToolCall(): AssistantMessage {
  // Made by another provider: its reasoning does not travel here (SPEC H4).
  return {
    role: "assistant",
    origin: { provider: "anthropic", apiMode: "anthropic_messages", model: "claude" },
    usage: ZERO_USAGE,
    stopReason: "tool_calls",
    parts: [{ type: "toolCall", callId: "c1", name: "ls", argumentsJson: "{}" }],
  };
}

describe("reasoning on chat completions routes", () => {
  it("openai-style routes send reasoning_effort", async () => {
    const { fake, runtime } = await route("groq", {});
    fake.enqueue({ reasoning: "hmm", text: "ok" });
    const reply = await ask(runtime, [{ role: "user", content: "hi" }], { effort: "high" });
    expect(body(fake).reasoning_effort).toBe("high");
    expect(reply.parts[0]).toEqual({ type: "reasoning", text: "hmm" });
    expect(rejected(fake)).toEqual([]);
  });

  it("OpenRouter gets reasoning.effort, or reasoning.max_tokens from a thinking budget, and its reasoning is read", async () => {
    const { fake, runtime } = await route("openrouter", { chatDialect: "openrouter" });
    fake.enqueue({ reasoning: "step one", text: "ok" }, { text: "ok" }, { text: "ok" });
    const reply = await ask(runtime, [{ role: "user", content: "hi" }], {
      effort: "low",
      budgetTokens: 4096,
    });
    expect(body(fake).reasoning).toEqual({ effort: "low" });
    expect(body(fake)).not.toHaveProperty("reasoning_effort");
    expect(reply.parts[0]).toMatchObject({ type: "reasoning", text: "step one" });
    await ask(runtime, [{ role: "user", content: "hi" }], { budgetTokens: 4096 });
    expect(body(fake).reasoning).toEqual({ max_tokens: 4096 });
    await ask(runtime, [{ role: "user", content: "hi" }], undefined);
    expect(body(fake)).not.toHaveProperty("reasoning");
    expect(rejected(fake)).toEqual([]);
  });

  it("OpenRouter's signed reasoning_details are kept from the stream and sent back unchanged", async () => {
    const { fake, runtime } = await route("openrouter", { chatDialect: "openrouter" });
    fake.enqueue({
      reasoning: "check the file first",
      toolCalls: [{ name: "ls", arguments: {}, id: "call_or" }],
    });
    const history: Message[] = [{ role: "user", content: "what is here?" }];
    const first = await ask(runtime, history, { effort: "high" });
    const reasoning = first.parts[0];
    expect(reasoning?.type).toBe("reasoning");
    const details = reasoning?.type === "reasoning" ? reasoning.raw?.reasoning_details : undefined;
    expect(details).toEqual([
      expect.objectContaining({
        type: "reasoning.text",
        text: "check the file first",
        signature: expect.any(String),
      }),
    ]);
    expect(reasoning?.type === "reasoning" && reasoning.issuer).toBe(fake.baseUrl);
    history.push(first, {
      role: "tool",
      callId: "call_or",
      toolName: "ls",
      content: "a.txt",
      isError: false,
    });
    fake.enqueue({ text: "a.txt" });
    await ask(runtime, history, { effort: "high" });
    const messages = body(fake).messages as Record<string, unknown>[];
    expect(messages[1]?.reasoning_details).toEqual(details);
    expect(rejected(fake)).toEqual([]);
  });

  it("DeepSeek gets thinking + reasoning_effort and its reasoning_content back on tool-call messages", async () => {
    const { fake, runtime } = await route("deepseek", { chatDialect: "deepseek" });
    fake.enqueue({ reasoning: "list first", toolCalls: [{ name: "ls", arguments: {}, id: "call_ds" }] });
    const history: Message[] = [{ role: "user", content: "what is here?" }];
    const first = await ask(runtime, history, { effort: "medium" });
    expect(body(fake)).toMatchObject({ thinking: { type: "enabled" }, reasoning_effort: "medium" });
    const callId = first.parts.find((p) => p.type === "toolCall")?.callId ?? "";
    history.push(first, { role: "tool", callId, toolName: "ls", content: "a.txt", isError: false });
    fake.enqueue({ text: "a.txt" });
    await ask(runtime, history, { effort: "medium" });
    const messages = body(fake).messages as Record<string, unknown>[];
    expect(messages[1]).toMatchObject({ role: "assistant", reasoning_content: "list first" });
    expect(rejected(fake)).toEqual([]);
  });

  it("DeepSeek: a tool call whose reasoning was made elsewhere still carries reasoning_content", async () => {
    const { fake, runtime } = await route("deepseek", { chatDialect: "deepseek" });
    fake.enqueue({ text: "done" });
    await ask(
      runtime,
      [
        { role: "user", content: "go" },
        foreignToolCall(),
        { role: "tool", callId: "c1", toolName: "ls", content: "a.txt", isError: false },
      ],
      undefined,
    );
    expect((body(fake).messages as Record<string, unknown>[])[1]?.reasoning_content).toBe(" ");
    expect(rejected(fake)).toEqual([]);
  });

  it("DeepSeek: the final answer of a turn that called tools elsewhere carries reasoning_content too", async () => {
    const { fake, runtime } = await route("deepseek", { chatDialect: "deepseek" });
    fake.enqueue({ text: "you are welcome" });
    const answer: AssistantMessage = {
      ...foreignToolCall(),
      stopReason: "end",
      parts: [{ type: "text", text: "a.txt is there" }],
    };
    await ask(
      runtime,
      [
        { role: "user", content: "go" },
        foreignToolCall(),
        { role: "tool", callId: "c1", toolName: "ls", content: "a.txt", isError: false },
        answer,
        { role: "user", content: "thanks" },
      ],
      undefined,
    );
    expect((body(fake).messages as Record<string, unknown>[])[3]?.reasoning_content).toBe(" ");
    expect(rejected(fake)).toEqual([]);
  });
});
