// Layer (b): `iris acp` spawned as an editor starts it, driven by the SDK's own client (its
// `/unstable` entry): a budget, a token limit and a refusal each end the prompt with the stop
// reason ACP defines and a message the editor shows; fork, status and set_title work on the wire.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionNotification } from "@agentclientprotocol/sdk/unstable";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { agentText, configFor } from "./harness.js";
import { assertOnlyJsonRpc, handshake, rpc, spawnAcp, spawnFixture } from "./spawn.js";

const fx = spawnFixture();

describe("iris acp (spawned): how prompts stop, and the unstable session methods", () => {
  it("maps a budget, a token limit and a refusal to ACP stop reasons with a message", async () => {
    const fake = fx.fake();
    writeFileSync(join(fx.home(), "config.yaml"), configFor(fake, "agent: {max_rounds: 1}\n"));
    writeFileSync(join(fx.work(), "notes.txt"), "alpha\n");
    const agent = spawnAcp({ IRIS_HOME: fx.home() }, fx.work());
    const updates: SessionNotification[] = [];
    const client = acp
      .client({ name: "spawn-limits" })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        updates.push(params);
      });
    await client.connectWith(agent.stream(), async (ctx) => {
      const init = await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      expect(init.agentCapabilities?.sessionCapabilities?.fork).toEqual({});
      const s = await ctx.buildSession(fx.work()).start();
      const mine = () => updates.filter((u) => u.sessionId === s.sessionId);

      fake.enqueue({ toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }] });
      expect((await s.prompt("read it")).stopReason).toBe("max_turn_requests");
      expect(agentText(mine())).toMatch(/max_rounds is 1/);

      fake.enqueue({ text: "cut in the mid", stopReason: "max_tokens" });
      expect((await s.prompt("long")).stopReason).toBe("max_tokens");

      fake.enqueue({ refusal: "I cannot do that." });
      expect((await s.prompt("forbidden")).stopReason).toBe("refusal");
      expect(agentText(mine())).toContain("I cannot do that.");

      const fork = await ctx.request(acp.methods.agent.session.fork, {
        sessionId: s.sessionId,
        cwd: fx.work(),
      });
      fake.enqueue({ text: "forked answer" });
      const answered = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: fork.sessionId,
        prompt: [{ type: "text", text: "in the fork" }],
      });
      expect(answered.stopReason).toBe("end_turn");
      const last = fake.requests.at(-1)?.rawBody.toString() ?? "";
      expect(last).toContain("cut in the mid");
      expect(last).not.toContain("forbidden");

      const status = await ctx.request(acp.methods.agent.session.status, { sessionId: fork.sessionId });
      expect(status.status).toBe("open");
      const titled = await ctx.request(acp.methods.agent.session.setTitle, {
        sessionId: fork.sessionId,
        title: "The fork",
      });
      expect(titled.title).toBe("The fork");
    });
    expect(await agent.end()).toBe(0);
    assertOnlyJsonRpc(agent.lines);
    expect(fake.violations).toEqual([]);
  });

  it("keeps the session's cost budget across a restart and a session/load", async () => {
    const fake = fx.fake();
    // gpt-4o-mini's catalogue price: $0.15 per million input tokens.
    writeFileSync(
      join(fx.home(), "config.yaml"),
      `model: {provider: openai, name: gpt-4o-mini}\n` +
        `providers: {openai: {base_url: '${fake.baseUrl}', api_mode: chat_completions}}\n` +
        "agent: {cost_budget_usd: 0.1}\n",
    );
    const env = { IRIS_HOME: fx.home(), OPENAI_API_KEY: "sk-test-not-real-0000" };
    const prompt = (sessionId: string, text: string) => ({ sessionId, prompt: [{ type: "text", text }] });
    fake.enqueue({ text: "that was expensive", usage: { input: 1_000_000, output: 0 } });
    const first = spawnAcp(env, fx.work());
    const sessionId = String((await handshake(first, fx.work())).result?.sessionId);
    expect((await rpc(first, 2, "session/prompt", prompt(sessionId, "spend"))).result).toEqual({
      stopReason: "end_turn",
    });
    expect(await first.end()).toBe(0);

    const second = spawnAcp(env, fx.work());
    await rpc(second, 0, "initialize", { protocolVersion: 1 });
    expect((await rpc(second, 1, "session/load", { sessionId, cwd: fx.work(), mcpServers: [] })).error).toBe(
      undefined,
    );
    const answered = await rpc(second, 2, "session/prompt", prompt(sessionId, "spend more"));
    expect(answered.result).toEqual({ stopReason: "max_turn_requests" });
    expect(second.lines.join("\n")).toMatch(/of the \$0\.10 cost budget/);
    expect(fake.requests).toHaveLength(1);
    expect(await second.end()).toBe(0);
    assertOnlyJsonRpc(first.lines);
    assertOnlyJsonRpc(second.lines);
  });
});
