import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlm } from "./server.js";
import { type Mode, post } from "./test-client.js";
import type { FakeLlm } from "./types.js";

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
  fake.setHandler(() => ({ text: "fine" }));
});
afterAll(async () => {
  await fake.close();
});

const user = (content: unknown = "hi") => ({ role: "user", content });
const call = (id: string) => ({ id, type: "function", function: { name: "f", arguments: "{}" } });
const asst = (...ids: string[]) => ({ role: "assistant", content: null, tool_calls: ids.map(call) });
const tool = (id: string) => ({ role: "tool", tool_call_id: id, content: "ok" });

const fnCall = (call_id: string) => ({ type: "function_call", call_id, name: "f", arguments: "{}" });
const fnOut = (call_id: string) => ({ type: "function_call_output", call_id, output: "ok" });

const toolUse = (...ids: string[]) => ({
  role: "assistant",
  content: ids.map((id) => ({ type: "tool_use", id, name: "f", input: {} })),
});
const toolResult = (...ids: string[]) => ({
  role: "user",
  content: ids.map((id) => ({ type: "tool_result", tool_use_id: id, content: "ok" })),
});
const cached = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    type: "text",
    text: `b${i}`,
    cache_control: { type: "ephemeral" },
  }));

interface Case {
  mode: Mode;
  rule: string;
  where: string;
  bad: unknown[];
  good: unknown[];
}

const cases: Case[] = [
  {
    mode: "chat",
    rule: "chat.bad_name",
    where: "messages[0].name",
    bad: [{ role: "user", content: "hi", name: "Ann Lee" }],
    good: [{ role: "user", content: "hi", name: "ann_lee" }],
  },
  {
    mode: "chat",
    rule: "chat.tool_call_without_result",
    where: "messages[1]",
    bad: [user(), asst("c1", "c2"), tool("c1")],
    good: [user(), asst("c1", "c2"), tool("c2"), tool("c1")],
  },
  {
    mode: "chat",
    rule: "chat.result_without_call",
    where: "messages[1]",
    bad: [user(), tool("c9")],
    good: [user(), asst("c9"), tool("c9")],
  },
  {
    mode: "chat",
    rule: "chat.message_between_call_and_result",
    where: "messages[2]",
    bad: [user(), asst("c1"), user("wait"), tool("c1")],
    good: [user(), asst("c1"), tool("c1"), user("wait")],
  },
  {
    mode: "chat",
    rule: "chat.empty_tool_call_id",
    where: "messages[1].tool_calls[0]",
    bad: [user(), asst(""), tool("")],
    good: [user(), asst("x"), tool("x")],
  },
  {
    mode: "responses",
    rule: "responses.unknown_call_id",
    where: "input[1].call_id",
    bad: [user(), fnOut("call_nope")],
    good: [user(), fnCall("call_yes"), fnOut("call_yes")],
  },
  {
    mode: "responses",
    rule: "responses.call_without_output",
    where: "input[1]",
    bad: [user(), fnCall("call_a"), fnCall("call_b"), fnOut("call_b")],
    good: [user(), fnCall("call_a"), fnCall("call_b"), fnOut("call_b"), fnOut("call_a")],
  },
  {
    mode: "responses",
    rule: "responses.response_only_field",
    where: "input[1].status",
    bad: [user(), { ...fnCall("c"), status: "completed" }, fnOut("c")],
    good: [user(), fnCall("c"), fnOut("c")],
  },
  {
    mode: "responses",
    rule: "responses.response_only_field",
    where: "input[0].created_at",
    bad: [{ ...user(), created_at: 1 }],
    good: [user()],
  },
  {
    mode: "responses",
    rule: "responses.reasoning_without_encrypted_content",
    where: "input[1]",
    bad: [user(), { type: "reasoning", summary: [] }],
    good: [
      user(),
      // An id alone is good when the server stores items; encrypted_content must be this
      // server's own (strict.test.ts), so none appears here.
      { type: "reasoning", id: "rs_1", summary: [] },
    ],
  },
  {
    mode: "anthropic",
    rule: "anthropic.consecutive_user",
    where: "messages[1]",
    bad: [user(), user()],
    good: [user(), { role: "assistant", content: "a" }, user()],
  },
  {
    mode: "anthropic",
    rule: "anthropic.consecutive_assistant",
    where: "messages[2]",
    bad: [user(), { role: "assistant", content: "a" }, { role: "assistant", content: "b" }],
    good: [user(), { role: "assistant", content: "a" }],
  },
  {
    mode: "anthropic",
    rule: "anthropic.first_message_not_user",
    where: "messages[0]",
    bad: [{ role: "assistant", content: "a" }, user()],
    good: [user()],
  },
  {
    mode: "anthropic",
    rule: "anthropic.tool_use_without_result",
    where: "messages[1]",
    bad: [user(), toolUse("t1", "t2"), toolResult("t1")],
    good: [user(), toolUse("t1", "t2"), toolResult("t2", "t1")],
  },
  {
    mode: "anthropic",
    rule: "anthropic.result_without_call",
    where: "messages[2]",
    bad: [user(), { role: "assistant", content: "a" }, toolResult("t7")],
    good: [user(), toolUse("t7"), toolResult("t7")],
  },
  {
    mode: "anthropic",
    rule: "anthropic.system_role_in_messages",
    where: "messages[0].role",
    bad: [{ role: "system", content: "s" }, user()],
    good: [user()],
  },
  {
    mode: "anthropic",
    rule: "anthropic.too_many_cache_breakpoints",
    where: "cache_control",
    bad: [user(cached(5))],
    good: [user(cached(4))],
  },
];

const bodyFor = (mode: Mode, items: unknown[]) =>
  mode === "responses" ? { model: "m", input: items } : { model: "m", max_tokens: 10, messages: items };

describe.each(cases)("$mode rule $rule ($where)", ({ mode, rule, where, bad, good }) => {
  it("rejects the bad shape with 400 naming the rule and the index, and records the violation", async () => {
    const before = fake.violations.length;
    const res = await post(fake, mode, bodyFor(mode, bad));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.message).toContain(rule);
    expect(body.error.message).toContain(where);
    expect(fake.violations.length).toBe(before + 1);
    expect(fake.violations.at(-1)?.rejected).toBe(`${rule} at ${where}`);
    if (mode === "anthropic") expect(body).toHaveProperty("type", "error");
  });

  it("accepts the good shape", async () => {
    const before = fake.violations.length;
    const res = await post(fake, mode, bodyFor(mode, good));
    expect(res.status).toBe(200);
    expect(fake.violations.length).toBe(before);
  });
});

describe("body basics", () => {
  it.each<[Mode, string, string]>([
    ["chat", "{not json", "body.not_json"],
    ["chat", JSON.stringify({ messages: [] }), "body.model_missing"],
    ["chat", JSON.stringify({ model: "m" }), "body.messages_missing"],
    ["responses", JSON.stringify({ model: "m" }), "body.input_missing"],
    ["anthropic", JSON.stringify({ model: "m" }), "body.messages_missing"],
    ["anthropic", "[1,2]", "body.not_object"],
  ])("%s body %s → 400 %s", async (mode, raw, rule) => {
    const res = await post(fake, mode, raw);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(rule);
  });

  it("a function_call_output may answer a call of an earlier response via previous_response_id", async () => {
    fake.enqueue({ toolCalls: [{ name: "f", arguments: {} }] });
    const first = await post(fake, "responses", { model: "m", input: "go" });
    const output = ((await first.json()) as { id: string; output: { call_id: string }[] }).output;
    const callId = output[0]?.call_id as string;
    const chained = await post(fake, "responses", {
      model: "m",
      previous_response_id: "resp_x",
      input: [fnOut(callId)],
    });
    expect(chained.status).toBe(200);
    const unchained = await post(fake, "responses", { model: "m", input: [fnOut(callId)] });
    expect(unchained.status).toBe(400);
  });

  it("with validate: false the shape rules are off", async () => {
    const lax = await startFakeLlm({ validate: false });
    try {
      lax.enqueue({ text: "ok" });
      const res = await post(lax, "anthropic", bodyFor("anthropic", [user(), user()]));
      expect(res.status).toBe(200);
      expect(lax.violations).toEqual([]);
    } finally {
      await lax.close();
    }
  });
});
