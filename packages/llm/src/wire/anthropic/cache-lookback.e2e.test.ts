// The second cache marker against the fake server's block-level cache (Anthropic's documented
// 20-block look-back): after a round of 24 parallel calls the previous request's entry is out of
// reach of the newest marker, and the request must still read it.
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../runtime.js";
import type { AssistantMessage, LlmRequest, Message } from "../../types.js";
import { ZERO_USAGE } from "../../types.js";
import { completeLlm } from "../stream.js";
import { fakeRuntime } from "../test/fake-route.js";

let fake: FakeLlm;
let runtime: Runtime;
beforeAll(async () => {
  fake = await startFakeLlm();
  runtime = fakeRuntime(fake.baseUrl, {
    provider: "anthropic",
    apiMode: "anthropic_messages",
    model: "claude-sonnet-4-5",
    apiKey: "sk-ant-test",
    compat: { auth: "x-api-key", promptCache: true },
  });
});
afterAll(async () => {
  await fake.close();
});

const opening: Message = {
  role: "user",
  content: `Read these notes first. ${"The notes go on. ".repeat(500)}`,
};
const N = 24;
const calls: AssistantMessage = {
  role: "assistant",
  origin: { provider: "anthropic", apiMode: "anthropic_messages", model: "claude-sonnet-4-5" },
  usage: ZERO_USAGE,
  stopReason: "tool_calls",
  parts: Array.from({ length: N }, (_, i) => ({
    type: "toolCall" as const,
    callId: `toolu_${i}`,
    name: "read",
    argumentsJson: JSON.stringify({ part: i }),
  })),
};
const results: Message[] = Array.from({ length: N }, (_, i) => ({
  role: "tool" as const,
  callId: `toolu_${i}`,
  toolName: "read",
  content: `part ${i}`,
  isError: false,
}));

async function cacheRead(messages: Message[]): Promise<number> {
  fake.enqueue({ text: "ok" });
  const request: LlmRequest = {
    model: "claude-sonnet-4-5",
    system: "You are terse.",
    tools: [{ name: "read", description: "Reads a part.", parameters: { type: "object", properties: {} } }],
    messages,
    cache: true,
  };
  const result = await completeLlm(runtime, request, { idleTimeoutMs: 20_000 });
  if (!result.ok) throw new Error(result.error.message);
  return result.message.usage.cacheReadTokens;
}

describe("anthropic cache markers and the 20-block look-back", () => {
  it("reads the previous request's entry after a round of 24 parallel calls", async () => {
    expect(await cacheRead([opening])).toBe(0);
    // 48 blocks after the opening: only a marker on the opening itself reaches its entry.
    const read = await cacheRead([opening, calls, ...results]);
    expect(read).toBeGreaterThanOrEqual(1_024);
    expect(fake.violations).toEqual([]);
  });
});
