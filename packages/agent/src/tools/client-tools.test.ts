// Tools an API client runs itself (SPEC E3) in a real turn against the fake server: their calls
// end the turn unanswered (`client_tool_calls`), Iris's own calls of the same reply still run,
// and a turn started with `null` continues from the client's results.
import { join } from "node:path";
import type { ToolResultMessage } from "@iris/llm";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { createApprovalPolicy, defineTool, selectMenu, ToolRegistry } from "@iris/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import { fakeRuntime } from "../context/test-support.js";
import { AgentEvents } from "../events.js";
import { LlmModelClient } from "../model/llm-client.js";
import { MemoryConversation } from "../session/memory-conversation.js";
import { withClientTools } from "./client-tools.js";
import { RegistryToolBox } from "./registry-toolbox.js";

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-client-tools-");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

async function agentOn(log: MemoryConversation): Promise<Agent> {
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
  const own = new RegistryToolBox({
    registry,
    menu,
    policy: createApprovalPolicy({ mode: "off" }),
    frontEnd: {},
    events,
  });
  return new Agent({
    log,
    model: new LlmModelClient(fakeRuntime(fake.baseUrl), { costOf: () => 0 }),
    tools: withClientTools(own, [
      { name: "lookup", description: "Client-side lookup", parameters: { type: "object", properties: {} } },
      { name: "echo", description: "A clash: Iris's own echo wins", parameters: { type: "object" } },
    ]),
    systemPrompt: "test",
    cwd: join(dir.path),
    events,
  });
}

describe("client tools", () => {
  it("end the turn with their calls open; Iris's own call of the same reply runs; null continues", async () => {
    const log = new MemoryConversation();
    fake.enqueue(
      {
        toolCalls: [
          { name: "echo", arguments: { text: "mine" } },
          { name: "lookup", arguments: { q: "theirs" } },
        ],
      },
      { text: "both answered" },
    );
    const first = await (await agentOn(log)).run("go");
    expect(first.reason).toBe("client_tool_calls");
    expect(first.message?.parts.filter((p) => p.type === "toolCall").map((p) => p.name)).toEqual([
      "echo",
      "lookup",
    ]);
    const sentTools =
      (fake.requests[0]?.body as { tools: { function: { name: string } }[] } | undefined)?.tools ?? [];
    expect(sentTools.map((t) => t.function.name)).toEqual(["echo", "lookup"]);
    expect((await log.history()).map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect((await log.history())[2]).toMatchObject({ role: "tool", content: "echo:mine" });
    const lookupCall = first.message?.parts.find((p) => p.type === "toolCall" && p.name === "lookup");
    const answer: ToolResultMessage = {
      role: "tool",
      callId: lookupCall?.type === "toolCall" ? lookupCall.callId : "",
      toolName: "lookup",
      content: "found",
      isError: false,
    };
    await log.append(answer);
    const second = await (await agentOn(log)).run(null);
    expect(second.reason).toBe("natural");
    expect(second.text).toBe("both answered");
    expect((await log.history()).map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "tool",
      "assistant",
    ]);
    expect(fake.requests).toHaveLength(2);
    expect(fake.violations).toEqual([]);
  });
});
