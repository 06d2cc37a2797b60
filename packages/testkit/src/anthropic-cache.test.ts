import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlm } from "./server.js";
import { post } from "./test-client.js";
import type { FakeLlm } from "./types.js";

let fake: FakeLlm;
beforeEach(async () => {
  fake = await startFakeLlm();
});
afterEach(async () => {
  await fake.close();
});

const cc = { type: "ephemeral" };
const notes = { type: "text", text: `Notes. ${"The notes go on. ".repeat(500)}` };
const calls = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ type: "tool_use", id: `t${i}`, name: "x", input: {} }));
const results = (n: number, markLast: boolean, content = "r") =>
  Array.from({ length: n }, (_, i) => ({
    type: "tool_result",
    tool_use_id: `t${i}`,
    content,
    ...(markLast && i === n - 1 ? { cache_control: cc } : {}),
  }));

async function cacheRead(messages: unknown[]): Promise<number> {
  fake.enqueue({ text: "ok" });
  const res = await post(fake, "anthropic", {
    model: "claude-fake",
    max_tokens: 10,
    stream: false,
    messages,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { usage: { cache_read_input_tokens: number } }).usage.cache_read_input_tokens;
}

describe("anthropic prompt cache by blocks", () => {
  it("reads an entry within 20 blocks of a marker, and not beyond", async () => {
    const first = { role: "user", content: [{ ...notes, cache_control: cc }] };
    expect(await cacheRead([first])).toBe(0);
    const plain = { role: "user", content: [notes] };
    // 2 + 2 blocks after the entry: found.
    const near = await cacheRead([
      plain,
      { role: "assistant", content: calls(2) },
      { role: "user", content: results(2, true) },
    ]);
    expect(near).toBeGreaterThan(1_024);
    // 24 + 24 blocks after it: out of reach of the newest marker.
    const far = [
      plain,
      { role: "assistant", content: calls(24) },
      { role: "user", content: results(24, true) },
    ];
    expect(await cacheRead(far)).toBe(0);
    // A second marker on the block the entry was written at reads it (other results, so the
    // entry the previous request wrote at its end cannot be the one found).
    const marked = [
      first,
      { role: "assistant", content: calls(24) },
      { role: "user", content: results(24, true, "s") },
    ];
    expect(await cacheRead(marked)).toBeGreaterThan(1_024);
  });

  it("reads nothing without a marker", async () => {
    const messages = [{ role: "user", content: [notes] }];
    expect(await cacheRead(messages)).toBe(0);
    expect(await cacheRead(messages)).toBe(0);
  });
});
