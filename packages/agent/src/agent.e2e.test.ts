// The Agent end to end: a real store, a real tool registry and dispatcher, the real model client
// against the fake LLM server speaking each wire format.
import { type Runtime, textOf, toolCallsOf } from "@iris/llm";
import { openStore, type Store } from "@iris/store";
import { type FakeLlm, startFakeLlm, tempDir } from "@iris/testkit";
import { createApprovalPolicy, defineTool, selectMenu, ToolRegistry } from "@iris/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "./agent.js";
import { AgentEvents } from "./events.js";
import { LlmModelClient } from "./model/llm-client.js";
import { StoreConversation } from "./session/store-conversation.js";
import { RegistryToolBox } from "./tools/registry-toolbox.js";

const MODES = ["chat_completions", "responses", "anthropic_messages"] as const;
let fake: FakeLlm;
let dir: ReturnType<typeof tempDir>;
let store: Store;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-agent-");
  store = openStore(`${dir.path}/state.db`);
});
afterEach(async () => {
  await store.close();
  await fake.close();
  dir.cleanup();
});

function runtime(mode: (typeof MODES)[number]): Runtime {
  return {
    provider: "fake",
    apiMode: mode,
    baseUrl: fake.baseUrl,
    model: "m",
    apiKey: "k",
    headers: {},
    compat: { auth: mode === "anthropic_messages" ? "x-api-key" : "bearer" },
    source: {
      provider: "explicit",
      model: "explicit",
      baseUrl: "explicit",
      apiMode: "explicit",
      apiKey: "explicit",
    },
  };
}

async function makeAgent(mode: (typeof MODES)[number], gate?: Promise<void>) {
  const registry = new ToolRegistry();
  registry.register(
    defineTool({
      name: "wait_echo",
      toolset: "test",
      description: "Echoes text after the test lets it go.",
      parameters: z.object({ text: z.string() }),
      effect: "read",
      execute: async ({ text }) => {
        await gate;
        return `echo:${text}`;
      },
    }),
  );
  const menu = await selectMenu(registry, { platform: "test", config: { toolsets: { test: ["test"] } } });
  const events = new AgentEvents();
  const session = await store.createSession({ source: "test" });
  const agent = new Agent({
    log: await StoreConversation.open(store, session.id),
    model: new LlmModelClient(runtime(mode)),
    tools: new RegistryToolBox({
      registry,
      menu,
      policy: createApprovalPolicy({ mode: "off" }),
      frontEnd: {},
      events,
    }),
    systemPrompt: "You are a test.",
    cwd: dir.path,
    events,
  });
  return { agent, session, events };
}

describe.each(MODES)("Agent over %s", (mode) => {
  it("injects a message typed mid-turn only after the round's results, and checkpoints in order", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const { agent, session, events } = await makeAgent(mode, gate);
    fake.enqueue({ toolCalls: [{ name: "wait_echo", arguments: { text: "one" } }] }, { text: "final" });
    events.on("tool_exec_started", () => {
      expect(agent.inject({ role: "user", content: "also mention two", name: "ann" })).toBe(true);
      release();
    });
    const result = await agent.run("start");
    expect(result.reason).toBe("natural");
    expect(result.text).toBe("final");
    const stored = (await store.activePath(session.id)).map((n) => n.message!);
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user", "assistant"]);
    expect(stored[2]).toMatchObject({ role: "tool", content: "echo:one" });
    expect(stored[3]!.role === "user" && textOf(stored[3]!.content)).toBe("also mention two");
    const second = fake.requests[1]!.rawBody.toString("utf8");
    expect(second.indexOf("echo:one")).toBeLessThan(second.indexOf("also mention two"));
    expect(fake.violations).toEqual([]);
  });

  it("hands back a message typed during a tool-less answer instead of dropping it", async () => {
    const { agent, session, events } = await makeAgent(mode);
    fake.enqueue({ text: "plain answer" });
    let injected = false;
    events.on("stream_delta", () => {
      if (!injected) injected = agent.inject({ role: "user", content: "one more thing" });
    });
    const result = await agent.run("start");
    expect(result.reason).toBe("natural");
    expect(injected).toBe(true);
    const unsent = agent.takeUnsent();
    expect(unsent.map((m) => textOf(m.content))).toEqual(["one more thing"]);
    expect(agent.takeUnsent()).toEqual([]);
    const stored = (await store.activePath(session.id)).map((n) => n.message!);
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("discards a stalled reply on interrupt: nothing partial is stored", async () => {
    const { agent, session } = await makeAgent(mode);
    fake.enqueue({ fault: "drop", reply: { text: "partial words that must not be kept" }, afterEvents: 3 });
    fake.enqueue({ fault: "stall" });
    const first = await agent.run("first");
    expect(first.reason).toBe("llm_error");
    const controller = new AbortController();
    const pending = agent.run("second", { signal: controller.signal });
    while (fake.requests.length < 2) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    const second = await pending;
    expect(second.reason).toBe("user_cancelled");
    const stored = (await store.activePath(session.id)).map((n) => n.message!);
    // The second turn first stored a note for the first one, which got no answer (H1).
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(stored)).not.toContain("partial words");
  });

  it("an interrupt keeps the text already shown, marked interrupted, and the next turn follows it (L7)", async () => {
    const { agent, session, events } = await makeAgent(mode);
    fake.enqueue({
      fault: "stall",
      reply: { text: "Here is the first part of a long answer that goes on and on for a while" },
      afterEvents: 6,
    });
    fake.enqueue({ text: "second answer" });
    let shown = "";
    const controller = new AbortController();
    events.on("stream_delta", (e) => {
      shown += e.text;
    });
    let reset = false;
    events.on("stream_reset", () => {
      reset = true;
    });
    const pending = agent.run("first", { signal: controller.signal });
    while (shown === "") await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    const first = await pending;
    expect(first.reason).toBe("user_cancelled");
    expect(reset).toBe(false);
    expect(first.kept).toBe(`${shown.trimEnd()}\n\n*(interrupted)*`);
    const good = await agent.run("second");
    expect(good).toMatchObject({ reason: "natural", text: "second answer" });
    const stored = (await store.activePath(session.id)).map((n) => n.message!);
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    const kept = stored[1]!.role === "assistant" ? stored[1]!.parts : [];
    expect(kept).toEqual([{ type: "text", text: first.kept }]);
    const sent = fake.requests[1]!.rawBody.toString("utf8");
    expect(sent).toContain("(interrupted)");
    expect(sent).not.toContain("No answer");
    expect(fake.violations).toEqual([]);
  });

  it("a failed turn followed by a good one stores no two user messages in a row (H1)", async () => {
    const { agent, session } = await makeAgent(mode);
    fake.enqueue({ fault: "status", status: 401 });
    expect((await agent.run("first")).reason).toBe("llm_error");
    fake.enqueue({ text: "second answer" });
    const good = await agent.run("second");
    expect(good).toMatchObject({ reason: "natural", text: "second answer" });
    const roles = (await store.activePath(session.id)).map((n) => n.message!.role);
    expect(roles).toEqual(["user", "assistant", "user", "assistant"]);
    expect(fake.violations).toEqual([]);
    // What was sent also alternates: the note went with the request.
    expect(fake.requests[1]!.rawBody.toString("utf8")).toContain("No answer");
  });

  it("a reply cut at the output limit before any answer ends llm_error marked max_tokens", async () => {
    const { agent } = await makeAgent(mode);
    fake.enqueue({ text: "", stopReason: "max_tokens" });
    const result = await agent.run("think a lot");
    expect(result).toMatchObject({ reason: "llm_error", error: { code: "max_tokens" } });
    expect(result.text).toMatch(/stop reason: max_tokens/);
  });

  it("continues a session idle for 3 hours: the budget counts work, not idle time (L4)", async () => {
    const { session } = await makeAgent(mode);
    const log = async () => await StoreConversation.open(store, session.id);
    const twoHours = 2 * 3_600_000;
    let clock = 1_000_000;
    const agentAt = async () =>
      new Agent({
        log: await log(),
        model: new LlmModelClient(runtime(mode)),
        tools: {
          specs: () => [],
          traits: () => undefined,
          run: async () => ({ content: "", isError: true }),
        },
        systemPrompt: "You are a test.",
        cwd: dir.path,
        budgets: { sessionBudgetMs: twoHours },
        now: () => clock,
      });
    fake.enqueue({ text: "one" });
    const first = (await agentAt()).run("first");
    clock += 5_000; // the turn took 5 s
    expect((await first).reason).toBe("natural");
    clock += 3 * 3_600_000; // three idle hours
    fake.enqueue({ text: "two" });
    expect(await (await agentAt()).run("second")).toMatchObject({ reason: "natural", text: "two" });
    expect(await store.activeTime.get(session.id)).toMatchObject({ turns: 2 });
    expect((await store.activeTime.get(session.id)).activeMs).toBeLessThan(10_000);
  });
});

describe("refusals and filters that carry tool calls (H3)", () => {
  it.each(MODES)(
    "%s: the calls get persisted 'not executed' results and the turn ends model_refusal",
    async (mode) => {
      const { agent, session } = await makeAgent(mode);
      fake.enqueue({
        text: "Let me",
        toolCalls: [{ name: "wait_echo", arguments: { text: "x" } }],
        stopReason: "refusal",
        refusal: "I can't help with that.",
      });
      const result = await agent.run("do it");
      expect(result.reason).toBe("model_refusal");
      const stored = (await store.activePath(session.id)).map((n) => n.message!);
      const calls = stored.flatMap((m) => (m.role === "assistant" ? toolCallsOf(m) : []));
      const results = stored.filter((m) => m.role === "tool");
      expect(results).toHaveLength(calls.length);
      for (const r of results)
        expect(r).toMatchObject({ isError: true, notExecuted: expect.stringContaining("refused") });
    },
  );
});

describe("a store that fails inside a turn", () => {
  it("ends the turn with store_error, never an escaped exception", async () => {
    const { agent } = await makeAgent("chat_completions");
    fake.enqueue({ text: "an answer that cannot be saved" });
    await store.close();
    const result = await agent.run("hello");
    expect(result.reason).toBe("store_error");
    expect(result.text).toMatch(/could not be saved/);
    store = openStore(`${dir.path}/state.db`);
  });
});

describe("a prompt the provider's filter blocks", () => {
  it("ends the turn input_blocked (Azure's 400 content_filter)", async () => {
    const { agent } = await makeAgent("chat_completions");
    fake.enqueue({
      fault: "status",
      status: 400,
      body: {
        error: { message: "The prompt was filtered.", type: null, param: "prompt", code: "content_filter" },
      },
    });
    const result = await agent.run("something filtered");
    expect(result.reason).toBe("input_blocked");
    expect(result.text).toContain("The prompt was filtered.");
  });
});
