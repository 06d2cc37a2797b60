// Conversation logs are ports (issue 14): the store's log, the in-memory log (stateless API
// requests) and the JSONL file log (batch trajectories) carry the same Agent turn — tool round,
// usage, resume, a split to a compacted history — against the fake server.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message, Runtime } from "@iris/llm";
import { openStore, type Store } from "@iris/store";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { createApprovalPolicy, defineTool, selectMenu, ToolRegistry } from "@iris/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { AgentEvents } from "../events.js";
import { LlmModelClient } from "../model/llm-client.js";
import type { ConversationLog } from "../ports.js";
import { RegistryToolBox } from "../tools/registry-toolbox.js";
import { JsonlConversation } from "./jsonl-conversation.js";
import { MemoryConversation } from "./memory-conversation.js";
import { StoreConversation } from "./store-conversation.js";

let fake: FakeLlm;
let dir: TempDir;
let store: Store;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-logs-");
  store = openStore(join(dir.path, "state.db"));
});
afterEach(async () => {
  await store.close();
  await fake.close();
  dir.cleanup();
});

const runtime = (): Runtime => ({
  provider: "fake",
  apiMode: "chat_completions",
  baseUrl: fake.baseUrl,
  model: "m",
  apiKey: "k",
  headers: {},
  compat: { auth: "bearer" },
  source: {
    provider: "explicit",
    model: "explicit",
    baseUrl: "explicit",
    apiMode: "explicit",
    apiKey: "explicit",
  },
});

async function agentOn(log: ConversationLog): Promise<Agent> {
  const registry = new ToolRegistry();
  registry.register(
    defineTool({
      name: "echo",
      toolset: "test",
      description: "Echoes text.",
      parameters: z.object({ text: z.string() }),
      effect: "read",
      execute: async ({ text }) => `echo:${text}`,
    }),
  );
  const menu = await selectMenu(registry, { platform: "test", config: { toolsets: { test: ["test"] } } });
  const events = new AgentEvents();
  return new Agent({
    log,
    model: new LlmModelClient(runtime(), { costOf: () => 0.25 }),
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
}

const kinds = {
  store: async () => await StoreConversation.open(store, (await store.createSession({ source: "test" })).id),
  memory: () => new MemoryConversation(),
  jsonl: () => new JsonlConversation(join(dir.path, "trajectories", "t1.jsonl")),
};
const roles = (ms: Message[]) => ms.map((m) => m.role);

describe.each(Object.keys(kinds) as (keyof typeof kinds)[])("the %s log", (kind) => {
  it("carries a tool round, its usage, and the next turn's history", async () => {
    const log = await kinds[kind]();
    fake.enqueue(
      { toolCalls: [{ name: "echo", arguments: { text: "hi" } }] },
      { text: "done" },
      { text: "again" },
    );
    const first = await (await agentOn(log)).run("start");
    expect(first.reason).toBe("natural");
    expect(roles(await log.history())).toEqual(["user", "assistant", "tool", "assistant"]);
    expect((await log.history())[2]).toMatchObject({ role: "tool", content: "echo:hi" });
    expect(await log.sessionCostUsd()).toBeCloseTo(0.5);
    // A fresh Agent per message reads the same history.
    await (await agentOn(log)).run("second");
    const sent = fake.requests.at(-1)?.rawBody.toString("utf8") ?? "";
    expect(sent).toContain("echo:hi");
    expect(sent).toContain("second");
    expect(fake.violations).toEqual([]);
  });
});

describe("file and memory logs", () => {
  it("the JSONL log resumes from its file, skips a torn last line, and never touches state.db", async () => {
    const path = join(dir.path, "trajectories", "t2.jsonl");
    const log = new JsonlConversation(path);
    fake.enqueue({ text: "one" });
    await (await agentOn(log)).run("hello");
    writeFileSync(path, `${readFileSync(path, "utf8")}{"type":"message","sess`);
    const again = new JsonlConversation(path);
    expect(again.sessionId).toBe(log.sessionId);
    expect(roles(await again.history())).toEqual(["user", "assistant"]);
    expect(await again.sessionCostUsd()).toBeCloseTo(0.25);
    expect(await store.listSessions({ limit: 10 })).toEqual([]);
  });

  it("a split continues under a new id with the compacted history, and survives a reopen", async () => {
    const path = join(dir.path, "t3.jsonl");
    for (const log of [new MemoryConversation(), new JsonlConversation(path)]) {
      fake.enqueue({ text: "long answer" }, { text: "after" });
      await (await agentOn(log)).run("a long question");
      const before = log.sessionId;
      const to = await log.split([{ role: "user", content: "[Summary] they asked a long question" }]);
      expect(to).not.toBe(before);
      expect(log.sessionId).toBe(to);
      await (await agentOn(log)).run("next");
      const sent = fake.requests.at(-1)?.rawBody.toString("utf8") ?? "";
      expect(sent).toContain("[Summary] they asked");
      expect(sent).not.toContain("long answer");
      // The summary stands alone as a user message; the turn notes that before going on (H1).
      expect(roles(await log.history())).toEqual(["user", "assistant", "user", "assistant"]);
    }
    expect(existsSync(path)).toBe(true);
    const reopened = new JsonlConversation(path);
    expect(roles(await reopened.history())).toEqual(["user", "assistant", "user", "assistant"]);
  });
});
