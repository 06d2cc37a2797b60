import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm } from "./server.js";
import { minimalBody, post, sseJson } from "./test-client.js";
import type { FakeLlm } from "./types.js";

let fake: FakeLlm;
let other: FakeLlm;
beforeEach(async () => {
  fake = await startFakeLlm({ contextWindows: { "small-model": 500 } });
  other = await startFakeLlm();
});
afterEach(async () => {
  await fake.close();
  await other.close();
});

const long = "word ".repeat(800); // about 1,000 tokens

describe("context window", () => {
  it("answers an over-window prompt with each format's real error", async () => {
    const chat = await post(fake, "chat", {
      model: "small-model",
      messages: [{ role: "user", content: long }],
    });
    expect(chat.status).toBe(400);
    expect(((await chat.json()) as { error: { code: string } }).error.code).toBe("context_length_exceeded");
    const responses = await post(fake, "responses", { model: "small-model", input: long });
    expect(responses.status).toBe(400);
    expect(await responses.json()).toMatchObject({
      error: { code: "context_length_exceeded", param: "input" },
    });
    const anthropic = await post(fake, "anthropic", {
      model: "small-model",
      max_tokens: 10,
      messages: [{ role: "user", content: long }],
    });
    expect(anthropic.status).toBe(400);
    const body = (await anthropic.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.message).toMatch(/^prompt is too long: \d+ tokens > 500 maximum$/);
    expect(fake.overWindow).toHaveLength(3);
  });

  it("lets a prompt under the window through and reports its size as input tokens", async () => {
    fake.enqueue({ text: "ok" });
    const res = await post(fake, "chat", {
      model: "small-model",
      messages: [{ role: "user", content: "word ".repeat(100) }],
    });
    expect(res.status).toBe(200);
    const usage = ((await res.json()) as { usage: { prompt_tokens: number } }).usage;
    expect(usage.prompt_tokens).toBe(fake.requests[0]?.inputTokens);
    expect(usage.prompt_tokens).toBeGreaterThan(100);
  });
});

describe("encrypted reasoning and signatures", () => {
  async function reasoningItem(server: FakeLlm, include: boolean): Promise<Record<string, unknown>> {
    server.enqueue({ reasoning: "secret plan", text: "ok" });
    const extra = include ? { include: ["reasoning.encrypted_content"], store: false } : { store: false };
    const res = await post(server, "responses", minimalBody("responses", false, extra));
    const out = ((await res.json()) as { output: Record<string, unknown>[] }).output;
    return out.find((i) => i.type === "reasoning") ?? {};
  }

  it("sends encrypted_content only when the request includes it", async () => {
    expect(await reasoningItem(fake, false)).not.toHaveProperty("encrypted_content");
    expect(typeof (await reasoningItem(fake, true)).encrypted_content).toBe("string");
  });

  it("takes its own encrypted reasoning back and rejects another instance's", async () => {
    const own = await reasoningItem(fake, true);
    const foreign = await reasoningItem(other, true);
    const send = (item: Record<string, unknown>) =>
      post(fake, "responses", {
        model: "gpt-fake",
        store: false,
        input: [
          { type: "message", role: "user", content: "q" },
          { type: "reasoning", summary: [], encrypted_content: item.encrypted_content },
          { type: "message", role: "assistant", content: [{ type: "output_text", text: "ok" }] },
          { type: "message", role: "user", content: "again" },
        ],
      });
    fake.enqueue({ text: "fine" });
    expect((await send(own)).status).toBe(200);
    const res = await send(foreign);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: "invalid_encrypted_content" } });
    expect(fake.violations.at(-1)?.rejected).toMatch(/^responses\.foreign_encrypted_content/);
  });

  it("rejects a reasoning item without encrypted_content when store is false", async () => {
    const res = await post(fake, "responses", {
      model: "gpt-fake",
      store: false,
      input: [
        { type: "message", role: "user", content: "q" },
        { type: "reasoning", id: "rs_1", summary: [] },
      ],
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/not persisted/);
  });

  it("sends thinking only with thinking enabled and rejects foreign or edited signatures", async () => {
    const thinking = { thinking: { type: "enabled", budget_tokens: 1024 } };
    fake.enqueue({ reasoning: "mull", text: "a" });
    const plain = await post(fake, "anthropic", minimalBody("anthropic", false));
    expect(((await plain.json()) as { content: { type: string }[] }).content.map((b) => b.type)).toEqual([
      "text",
    ]);
    const block = async (server: FakeLlm) => {
      server.enqueue({ reasoning: "mull", text: "a" });
      const res = await post(server, "anthropic", minimalBody("anthropic", true, thinking));
      const events = await sseJson(res);
      const sig = events
        .filter((e) => (e.json.delta as { type?: string } | undefined)?.type === "signature_delta")
        .map((e) => (e.json.delta as { signature: string }).signature)
        .join("");
      return { type: "thinking", thinking: "mull", signature: sig };
    };
    const send = (b: Record<string, unknown>) =>
      post(fake, "anthropic", {
        model: "claude-fake",
        max_tokens: 2000,
        ...thinking,
        messages: [
          { role: "user", content: "hello" },
          { role: "assistant", content: [b, { type: "text", text: "a" }] },
          { role: "user", content: "more" },
        ],
      });
    const own = await block(fake);
    fake.enqueue({ text: "ok" });
    expect((await send(own)).status).toBe(200);
    expect((await send({ ...own, thinking: "edited" })).status).toBe(400);
    const res = await send(await block(other));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /Invalid `signature` in `thinking` block/,
    );
  });
});

describe("prompt cache", () => {
  it("reports a repeated prefix as cache reads, and Anthropic only with a marker", async () => {
    const history = [{ role: "user", content: long.repeat(3) }];
    const ask = async (mode: "chat" | "anthropic", extra: Record<string, unknown> = {}) => {
      fake.enqueue({ text: "ok" });
      const body =
        mode === "chat"
          ? { model: "gpt-fake", messages: history, ...extra }
          : { model: "claude-fake", max_tokens: 10, messages: history, ...extra };
      const res = await post(fake, mode, body);
      return ((await res.json()) as { usage: Record<string, unknown> }).usage;
    };
    await ask("chat");
    const second = await ask("chat");
    expect((second.prompt_tokens_details as { cached_tokens: number }).cached_tokens).toBeGreaterThan(1_024);
    await ask("anthropic");
    expect((await ask("anthropic")).cache_read_input_tokens).toBe(0);
    const marked = [{ type: "text", text: long.repeat(3), cache_control: { type: "ephemeral" } }];
    const extra = { messages: [{ role: "user", content: marked }] };
    expect((await ask("anthropic", extra)).cache_creation_input_tokens).toBeGreaterThan(0);
    expect((await ask("anthropic", extra)).cache_read_input_tokens).toBeGreaterThan(1_024);
  });
});

describe("thinking in a tool loop", () => {
  it("rejects a thinking request whose answered assistant turn does not open with thinking", async () => {
    const body = (assistantContent: unknown[]) => ({
      model: "claude-fake",
      max_tokens: 4000,
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: assistantContent },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] },
      ],
    });
    const res = await post(fake, "anthropic", body([{ type: "tool_use", id: "t1", name: "x", input: {} }]));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /a final `assistant` message must start with a thinking block/,
    );
    fake.enqueue({ text: "ok" });
    const { thinking: _, ...without } = body([{ type: "tool_use", id: "t1", name: "x", input: {} }]);
    expect((await post(fake, "anthropic", without)).status).toBe(200);
  });
});
