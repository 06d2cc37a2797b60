// Issue 11 check (c): a primary → fallback switch in the middle of a history that holds reasoning
// items, signed thinking, images and parallel calls, then the return to the primary, for every
// ordered pair of api modes. Both routes are the same provider at two endpoints (two accounts),
// and each fake server signs its reasoning with its own secret: a request carrying the other's
// reasoning would be answered 400, as the real APIs do. Shaping per attempt must prevent that.
import { join } from "node:path";
import { API_MODES, type ApiMode, type Runtime } from "@iris/llm";
import { openStore } from "@iris/store";
import { type FakeLlm, type ScriptedReply, startFakeLlm, tempDir } from "@iris/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { AgentEvents } from "../events.js";
import type { ToolBox } from "../ports.js";
import { StoreConversation } from "../session/store-conversation.js";
import { makeShaper } from "../turn/shaper.js";
import { ResilientModelClient } from "./resilient-client.js";

const echo: ToolBox = {
  specs: () => [
    {
      name: "echo",
      description: "Echoes its text.",
      parameters: { type: "object", properties: { text: { type: "string" } } },
    },
  ],
  traits: () => ({ effect: "read", parallelSafe: true, interactive: false }),
  run: async (call) => ({ content: `echo ${call.argumentsJson}`, isError: false }),
};

function runtime(fake: FakeLlm, apiMode: ApiMode): Runtime {
  return {
    provider: "custom",
    apiMode,
    baseUrl: fake.baseUrl,
    model: "fake-model",
    apiKey: "k",
    headers: {},
    compat: { auth: apiMode === "anthropic_messages" ? "x-api-key" : "bearer" },
    source: {
      provider: "explicit",
      model: "explicit",
      baseUrl: "explicit",
      apiMode: "explicit",
      apiKey: "explicit",
    },
  };
}

const calls = (round: string): ScriptedReply => ({
  reasoning: `thinking about ${round}`,
  text: `Working on ${round}.`,
  toolCalls: [
    { name: "echo", arguments: { text: `${round}-a` } },
    { name: "echo", arguments: { text: `${round}-b` } },
  ],
});
const answer = (text: string): ScriptedReply => ({ reasoning: `why ${text}`, text });

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const PAIRS = API_MODES.flatMap((a) => API_MODES.map((b) => [a, b] as const));

describe.each(PAIRS)("fallback from %s to %s", (primaryMode, fallbackMode) => {
  it("switches mid-turn and returns to the primary with 0 rejected requests", async () => {
    const [a, b] = (await Promise.all([startFakeLlm(), startFakeLlm()])) as [FakeLlm, FakeLlm];
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    const dir = tempDir("iris-fallback-shaping");
    cleanups.push(() => dir.cleanup());
    const store = openStore(join(dir.path, "state.db"));
    cleanups.push(() => store.close());
    const session = await store.createSession({ source: "test" });
    let clock = 1_000_000;
    const events = new AgentEvents();
    const statuses: string[] = [];
    events.on("status", (e) => statuses.push(e.message));
    const model = new ResilientModelClient({
      primary: runtime(a, primaryMode),
      fallbacks: [{ provider: "custom", model: "fake-model", baseUrl: b.baseUrl }],
      resolve: () => ({ ok: true, runtime: runtime(b, fallbackMode) }),
      cooldownMs: 60_000,
      now: () => clock,
      sleep: async () => true,
      events,
    });
    const system = "You are a test.";
    const agent = async () =>
      new Agent({
        log: await StoreConversation.open(store, session.id),
        model,
        tools: echo,
        systemPrompt: system,
        cwd: dir.path,
        events,
        shape: makeShaper(model, () => ({ contextWindow: 200_000, vision: true }), system),
        reasoningFor: (route) =>
          route.apiMode === "responses"
            ? {}
            : route.apiMode === "anthropic_messages"
              ? { budgetTokens: 1024 }
              : undefined,
      });

    a.enqueue(calls("t1"), answer("first"), calls("t2"), { fault: "status", status: 404 }, answer("third"));
    b.enqueue(calls("t2 on the fallback"), answer("second"));
    const picture = { type: "image" as const, mediaType: "image/png", data: "iVBORw0KGgo=" };
    const one = await (await agent()).run({
      role: "user",
      content: [{ type: "text", text: "look" }, picture],
    });
    expect(one.reason).toBe("natural");
    const two = await (await agent()).run("go on");
    expect([two.reason, two.text]).toEqual(["natural", "second"]);
    expect(statuses.join("\n")).toMatch(/switching to custom\/fake-model/);
    clock += 61_000; // the primary's cooldown is over: the next turn goes back to it
    const three = await (await agent()).run("and now?");
    expect([three.reason, three.text]).toEqual(["natural", "third"]);

    expect(a.violations.map((v) => v.rejected)).toEqual([]);
    expect(b.violations.map((v) => v.rejected)).toEqual([]);
    expect(a.requests).toHaveLength(5);
    expect(b.requests).toHaveLength(2);
    // Continuity: back on the primary, its own signed reasoning goes back to it.
    const last = JSON.stringify(a.requests.at(-1)?.body);
    if (primaryMode === "responses") expect(last).toContain('"encrypted_content"');
    if (primaryMode === "anthropic_messages") expect(last).toContain('"signature"');
    // The fallback never saw the primary's reasoning.
    for (const q of b.requests) expect(JSON.stringify(q.body)).not.toContain("thinking about t1");
  });
});
