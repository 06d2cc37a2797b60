// The real Agent over a real store, with the ResilientModelClient between it and two fake
// servers: a turn whose primary drops mid-answer and then answers 503 survives through the
// fallback, ends `natural`, and stores only the fallback's answer (no partial output).
import { join } from "node:path";
import { type RoutingConfig, textOf } from "@iris/llm";
import { openStore } from "@iris/store";
import { type FakeLlm, startFakeLlm, tempDir } from "@iris/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { AgentEvents } from "../events.js";
import type { ToolBox } from "../ports.js";
import { StoreConversation } from "../session/store-conversation.js";
import { resolverFromConfig } from "./fallback-chain.js";
import { ResilientModelClient } from "./resilient-client.js";

const noTools: ToolBox = {
  specs: () => [],
  traits: () => undefined,
  run: async () => ({ content: "", isError: true }),
};

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe("Agent with the resilient client", () => {
  it("a turn survives a dropped stream and a 503 via the fallback, storing no partial output", async () => {
    const [primary, fallback] = (await Promise.all([startFakeLlm(), startFakeLlm()])) as [FakeLlm, FakeLlm];
    cleanups.push(
      () => primary.close(),
      () => fallback.close(),
    );
    const dir = tempDir("iris-resilient-agent");
    cleanups.push(() => dir.cleanup());
    const store = openStore(join(dir.path, "state.db"));
    cleanups.push(() => store.close());
    const session = await store.createSession({ source: "test" });

    const config: RoutingConfig = {
      providers: {
        main: { base_url: primary.baseUrl, api_key_env: "MAIN_KEY" },
        spare: { base_url: fallback.baseUrl, api_key_env: "SPARE_KEY" },
      },
    };
    const resolve = resolverFromConfig(config, () => ({ MAIN_KEY: "main-key", SPARE_KEY: "spare-key" }));
    const main = resolve({ provider: "main", model: "fake-model" });
    if (!("ok" in main) || !main.ok) throw new Error("main route did not resolve");

    const events = new AgentEvents();
    const shown: string[] = [];
    events.on("stream_delta", (e) => shown.push(e.text));
    let resets = 0;
    events.on("stream_reset", () => {
      resets += 1;
      shown.splice(0); // what a front end does: drop the partial text
    });
    const statuses: string[] = [];
    events.on("status", (e) => statuses.push(e.message));
    const hooks: string[] = [];
    events.on("llm_call_retried", (e) => hooks.push(`retried:${e.error.kind}`));
    events.on("fallback_activated", (e) => hooks.push(`fallback:${e.from}->${e.to}`));
    const completed: string[] = [];
    events.on("turn_completed", (e) => completed.push(e.reason));

    const model = new ResilientModelClient({
      primary: main.runtime,
      fallbacks: [{ provider: "spare", model: "fake-model" }],
      resolve,
      events,
      retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2, retryAfterCapMs: 2 },
    });
    primary.enqueue(
      {
        fault: "drop",
        reply: { text: "PARTIAL answer that must never be stored", chunkSize: 4 },
        afterEvents: 5,
      },
      { fault: "status", status: 503 },
    );
    fallback.enqueue({ text: "the whole answer from the fallback" });

    const agent = new Agent({
      log: await StoreConversation.open(store, session.id),
      model,
      tools: noTools,
      systemPrompt: "sys",
      cwd: process.cwd(),
      events,
    });
    const result = await agent.run("hello");

    expect(result.reason).toBe("natural");
    expect(result.text).toBe("the whole answer from the fallback");
    expect(completed).toEqual(["natural"]);
    expect(hooks).toEqual(["retried:network", "fallback:main/fake-model->spare/fake-model"]);
    expect(statuses.some((s) => s.startsWith("server error at main/fake-model (503)"))).toBe(true);
    expect(resets).toBe(1);
    expect(shown.join("")).toBe("the whole answer from the fallback");

    const stored = (await store.activePath(session.id)).map((n) => n.message);
    expect(stored.map((m) => m?.role)).toEqual(["user", "assistant"]);
    const texts = stored.map((m) =>
      m?.role === "assistant"
        ? m.parts.map((p) => (p.type === "text" ? p.text : "")).join("")
        : textOf(m?.content ?? ""),
    );
    expect(texts).toEqual(["hello", "the whole answer from the fallback"]);
    expect(JSON.stringify(stored)).not.toContain("PARTIAL");
    expect((await store.usageForSession(session.id)).map((u) => u.provider)).toEqual(["spare"]);
    expect(model.route().provider).toBe("spare");
    expect(primary.violations).toEqual([]);
    expect(fallback.violations).toEqual([]);
    expect(fallback.requests[0]?.headers.authorization).toBe("Bearer spare-key");
  });
});

describe("billing of discarded replies", () => {
  it("an empty reply that is retried is still recorded and counted (F3)", async () => {
    const fake = await startFakeLlm();
    cleanups.push(() => fake.close());
    const dir = tempDir("iris-discarded");
    cleanups.push(() => dir.cleanup());
    const store = openStore(join(dir.path, "state.db"));
    cleanups.push(() => store.close());
    const session = await store.createSession({ source: "test" });
    const resolve = resolverFromConfig({ providers: { main: { base_url: fake.baseUrl } } }, () => ({}));
    const main = resolve({ provider: "main", model: "fake-model" });
    if (!("ok" in main) || !main.ok) throw new Error("main route did not resolve");
    const model = new ResilientModelClient({
      primary: main.runtime,
      resolve,
      retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2, retryAfterCapMs: 2 },
    });
    fake.enqueue(
      { text: "", usage: { input: 100, output: 3 } },
      { text: "here it is", usage: { input: 100, output: 5 } },
    );
    const agent = new Agent({
      log: await StoreConversation.open(store, session.id),
      model,
      tools: noTools,
      systemPrompt: "sys",
      cwd: dir.path,
    });
    const result = await agent.run("hello");
    expect(result.reason).toBe("natural");
    expect(result.usage.inputTokens).toBe(200);
    const rows = await store.usageForSession(session.id);
    expect(rows.map((r) => r.status)).toEqual(["discarded", "ok"]);
    expect((await store.getSession(session.id)).inputTokens).toBe(200);
  });
});
