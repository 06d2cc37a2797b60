import { describe, expect, it } from "vitest";
import type { Runtime } from "../../runtime.js";
import type { AssistantMessage, Message } from "../../types.js";
import { ZERO_USAGE } from "../../types.js";
import { buildAnthropicRequest } from "./build-request.js";
import { applyCacheBreakpoints, countBreakpoints, MAX_BREAKPOINTS } from "./cache.js";

const runtime: Runtime = {
  provider: "anthropic",
  apiMode: "anthropic_messages",
  baseUrl: "http://127.0.0.1:1/v1",
  model: "m",
  headers: {},
  compat: { auth: "x-api-key" },
  source: { provider: "default", model: "default", baseUrl: "default", apiMode: "default", apiKey: "none" },
};

// A small deterministic generator, so every run checks the same varied histories.
function lcg(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

function randomHistory(rand: () => number): Message[] {
  const out: Message[] = [];
  const n = Math.floor(rand() * 12);
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.4) out.push({ role: "user", content: rand() < 0.2 ? "" : `u${i}` });
    else if (r < 0.8) {
      const m: AssistantMessage = {
        role: "assistant",
        origin: { provider: "anthropic", apiMode: "anthropic_messages", model: "m" },
        usage: ZERO_USAGE,
        stopReason: "end",
        parts: [
          ...(rand() < 0.5
            ? [
                {
                  type: "reasoning" as const,
                  text: "t",
                  raw: { type: "thinking", thinking: "t", signature: "s" },
                },
              ]
            : []),
          ...(rand() < 0.7 ? [{ type: "text" as const, text: `a${i}` }] : []),
          ...(rand() < 0.5
            ? [{ type: "toolCall" as const, callId: `c${i}`, name: "t", argumentsJson: "{}" }]
            : []),
        ],
      };
      out.push(m);
    } else out.push({ role: "tool", callId: `c${i - 1}`, toolName: "t", content: "r", isError: false });
  }
  return out;
}

describe("anthropic cache breakpoints", () => {
  it(`never exceeds ${MAX_BREAKPOINTS} on any history, and never marks a thinking block`, () => {
    const rand = lcg(7);
    for (let i = 0; i < 500; i++) {
      const { body } = buildAnthropicRequest(runtime, {
        model: "m",
        ...(rand() < 0.7 ? { system: "s" } : {}),
        messages: randomHistory(rand),
        ...(rand() < 0.5
          ? {
              tools: [
                { name: "a", description: "", parameters: {} },
                { name: "b", description: "", parameters: {} },
              ],
            }
          : {}),
        cache: true,
      });
      expect(countBreakpoints(body)).toBeLessThanOrEqual(MAX_BREAKPOINTS);
      const blocks = (body["messages"] as { content: Record<string, unknown>[] }[]).flatMap((t) => t.content);
      for (const b of blocks) if (b["type"] === "thinking") expect(b).not.toHaveProperty("cache_control");
    }
  });

  it("marks the last system block, the last tool and the last block of the newest turn", () => {
    const marked = applyCacheBreakpoints({
      system: [
        { type: "text", text: "a" },
        { type: "text", text: "b" },
      ],
      tools: [{ name: "x" }, { name: "y" }],
      messages: [
        { role: "user", content: [{ type: "text", text: "1" }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "2" },
            { type: "thinking", thinking: "", signature: "s" },
          ],
        },
        {
          role: "user",
          content: [
            { type: "text", text: "3" },
            { type: "text", text: "4" },
          ],
        },
      ],
    });
    const cc = { type: "ephemeral" };
    expect(marked.system).toEqual([
      { type: "text", text: "a" },
      { type: "text", text: "b", cache_control: cc },
    ]);
    expect(marked.tools).toEqual([{ name: "x" }, { name: "y", cache_control: cc }]);
    // Older turns stay as they were, so the next request repeats their bytes (U5).
    expect(marked.messages[0]?.content).toEqual([{ type: "text", text: "1" }]);
    expect(marked.messages[1]?.content).toEqual([
      { type: "text", text: "2" },
      { type: "thinking", thinking: "", signature: "s" },
    ]);
    expect(marked.messages[2]?.content[1]).toEqual({ type: "text", text: "4", cache_control: cc });
  });

  it("marks the previous request's newest turn when the newest round is longer than the look-back", () => {
    const results = Array.from({ length: 24 }, (_, i) => ({
      type: "tool_result",
      tool_use_id: `t${i}`,
      content: "r",
    }));
    const calls = Array.from({ length: 24 }, (_, i) => ({
      type: "tool_use",
      id: `t${i}`,
      name: "x",
      input: {},
    }));
    const marked = applyCacheBreakpoints({
      system: [{ type: "text", text: "s" }],
      tools: [],
      messages: [
        { role: "user", content: [{ type: "text", text: "go" }] },
        { role: "assistant", content: calls },
        { role: "user", content: results },
      ],
    });
    const cc = { type: "ephemeral" };
    // 24 calls and 24 results: the entry the previous request wrote at "go" is 48 blocks back,
    // so it is marked again (a marker on the calls would still be 24 blocks from it).
    expect(marked.messages[0]?.content[0]).toHaveProperty("cache_control", cc);
    expect(marked.messages[2]?.content.at(-1)).toHaveProperty("cache_control", cc);
    expect(JSON.stringify(marked.messages[1])).not.toContain("cache_control");
  });
});
