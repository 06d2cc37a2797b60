import { afterEach, describe, expect, it } from "vitest";
import { startFakeLlm } from "./server.js";
import { post } from "./test-client.js";
import type { FakeLlm, FakeLlmOptions } from "./types.js";

const open: FakeLlm[] = [];
afterEach(async () => {
  for (const f of open.splice(0)) await f.close();
});
async function fake(opts: FakeLlmOptions): Promise<FakeLlm> {
  const f = await startFakeLlm(opts);
  open.push(f);
  return f;
}

const user = [{ role: "user", content: "hi" }];
type ErrorBody = { error: { message: string; param: string | null; code: string | null } };

async function rejected(f: FakeLlm, body: Record<string, unknown>): Promise<ErrorBody["error"]> {
  const res = await post(f, "chat", { model: "fake-model", stream: false, ...body });
  expect(res.status).toBe(400);
  return ((await res.json()) as ErrorBody).error;
}

describe("chat completions parameters per service", () => {
  it("openai: rejects an unknown argument and an effort it does not take", async () => {
    const f = await fake({});
    f.enqueue({ text: "ok" });
    const ok = await post(f, "chat", { model: "fake-model", messages: user, reasoning_effort: "high" });
    expect(ok.status).toBe(200);
    const unknown = await rejected(f, { messages: user, reasoning: { effort: "high" } });
    expect(unknown.message).toBe("Unrecognized request argument supplied: reasoning");
    const bad = await rejected(f, { messages: user, reasoning_effort: "max" });
    expect([bad.code, bad.param]).toEqual(["invalid_value", "reasoning_effort"]);
  });

  it("rejects reasoning parameters on a model that does not reason", async () => {
    const f = await fake({ reasoningModels: ["o-fake"] });
    const err = await rejected(f, { model: "gpt-fake", messages: user, reasoning_effort: "low" });
    expect(err.message).toBe("Unsupported parameter: 'reasoning_effort' is not supported with this model.");
  });

  it("openrouter: takes reasoning.effort or reasoning.max_tokens, never both, and not reasoning_effort", async () => {
    const f = await fake({ chatDialect: "openrouter" });
    f.enqueue({ reasoning: "because", text: "ok" });
    const ok = await post(f, "chat", {
      model: "fake-model",
      stream: false,
      messages: user,
      reasoning: { effort: "low" },
    });
    const message = ((await ok.json()) as { choices: { message: Record<string, unknown> }[] }).choices[0]
      ?.message;
    expect(message).toMatchObject({ reasoning: "because", content: "ok" });
    expect(message).not.toHaveProperty("reasoning_content");
    const both = await rejected(f, { messages: user, reasoning: { effort: "low", max_tokens: 100 } });
    expect(both.message).toMatch(/Only one of reasoning.effort and reasoning.max_tokens/);
    const flat = await rejected(f, { messages: user, reasoning_effort: "low" });
    expect(flat.message).toBe("Unrecognized request argument supplied: reasoning_effort");
  });

  it("openrouter: signed reasoning_details go back only to the instance that issued them", async () => {
    const f = await fake({ chatDialect: "openrouter" });
    const other = await fake({ chatDialect: "openrouter" });
    f.enqueue({ reasoning: "because", toolCalls: [{ name: "ls", arguments: {}, id: "call_1" }] });
    const res = await post(f, "chat", { model: "fake-model", stream: false, messages: user });
    const message = ((await res.json()) as { choices: { message: Record<string, unknown> }[] }).choices[0]
      ?.message;
    const history = [...user, message, { role: "tool", tool_call_id: "call_1", content: "a.txt" }];
    f.enqueue({ text: "ok" });
    expect((await post(f, "chat", { model: "fake-model", stream: false, messages: history })).status).toBe(
      200,
    );
    const err = await rejected(other, { messages: history });
    expect(err.message).toMatch(/Invalid `signature` in `thinking` block/);
  });

  it("deepseek: in thinking mode an assistant message with tool_calls must carry reasoning_content", async () => {
    const f = await fake({ chatDialect: "deepseek" });
    const call = { id: "call_1", type: "function", function: { name: "ls", arguments: "{}" } };
    const history = (assistant: Record<string, unknown>) => [
      ...user,
      { role: "assistant", content: null, tool_calls: [call], ...assistant },
      { role: "tool", tool_call_id: "call_1", content: "a.txt" },
    ];
    const err = await rejected(f, { messages: history({}), thinking: { type: "enabled" } });
    expect(err.param).toBe("messages[1].reasoning_content");
    // Thinking is on by default, so leaving `thinking` out does not help.
    await rejected(f, { messages: history({}) });
    f.enqueue({ text: "ok" }, { text: "ok" });
    const kept = await post(f, "chat", {
      model: "fake-model",
      messages: history({ reasoning_content: "look" }),
    });
    expect(kept.status).toBe(200);
    const off = await post(f, "chat", {
      model: "fake-model",
      messages: history({}),
      thinking: { type: "disabled" },
    });
    expect(off.status).toBe(200);
    await rejected(f, { messages: user, thinking: { type: "on" } });
  });

  it("deepseek: every assistant message of a turn that called tools carries reasoning_content", async () => {
    const f = await fake({ chatDialect: "deepseek" });
    const call = { id: "call_1", type: "function", function: { name: "ls", arguments: "{}" } };
    const turn = (answer: Record<string, unknown>) => [
      ...user,
      { role: "assistant", content: null, tool_calls: [call], reasoning_content: "look" },
      { role: "tool", tool_call_id: "call_1", content: "a.txt" },
      { role: "assistant", content: "a.txt is there", ...answer },
      { role: "user", content: "thanks" },
    ];
    const err = await rejected(f, { messages: turn({}) });
    expect(err.param).toBe("messages[3].reasoning_content");
    await rejected(f, { messages: turn({ reasoning_content: "" }) });
    f.enqueue({ text: "ok" }, { text: "ok" });
    expect(
      (await post(f, "chat", { model: "fake-model", messages: turn({ reasoning_content: " " }) })).status,
    ).toBe(200);
    // A turn without tools needs none.
    const plain = [...user, { role: "assistant", content: "hello" }, { role: "user", content: "again" }];
    expect((await post(f, "chat", { model: "fake-model", messages: plain })).status).toBe(200);
  });
});
