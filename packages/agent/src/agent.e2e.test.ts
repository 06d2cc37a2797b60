// The Agent end to end: a real store, a real tool registry and dispatcher, the real model client
// against the fake LLM server speaking each wire format.
import { type Runtime, textOf } from "@iris/llm";
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
  store.close();
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
  const session = store.createSession({ source: "test" });
  const agent = new Agent({
    log: new StoreConversation(store, session.id),
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
    events.on("TOOL_EXEC_STARTED", () => {
      expect(agent.inject({ role: "user", content: "also mention two", name: "ann" })).toBe(true);
      release();
    });
    const result = await agent.run("start");
    expect(result.reason).toBe("natural");
    expect(result.text).toBe("final");
    const stored = store.activePath(session.id).map((n) => n.message!);
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
    const stored = store.activePath(session.id).map((n) => n.message!);
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
    const stored = store.activePath(session.id).map((n) => n.message!);
    expect(stored.map((m) => m.role)).toEqual(["user", "user"]);
    expect(JSON.stringify(stored)).not.toContain("partial words");
  });
});
