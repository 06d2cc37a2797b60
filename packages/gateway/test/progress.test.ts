// Tool progress is one message edited in place, no more often than the platform allows, and the
// newest text always lands.
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { ProgressMessage } from "../src/progress.js";
import { MemoryAdapter } from "./memory-adapter.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

it("sends once, then edits in place at most once per interval, ending on the newest text", async () => {
  const adapter = new MemoryAdapter(false, true);
  adapter.limits.minEditIntervalMs = 1000;
  const p = new ProgressMessage(adapter, { platform: "mem", chatId: "ann" }, () => Date.now());
  p.update("⚙ terminal: ls");
  await vi.advanceTimersByTimeAsync(0);
  expect(adapter.sent.map((s) => s.text)).toEqual(["⚙ terminal: ls"]);
  for (let i = 0; i < 50; i++) p.update(`⚙ step ${i}`);
  await vi.advanceTimersByTimeAsync(999);
  expect(adapter.edits).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  expect(adapter.edits.map((e) => e.text)).toEqual(["⚙ step 49"]);
  p.update("⚙ last");
  await vi.advanceTimersByTimeAsync(1000);
  await p.done();
  expect(adapter.edits.map((e) => e.text)).toEqual(["⚙ step 49", "⚙ last"]);
  expect(adapter.sent).toHaveLength(1);
});

it("sends nothing where the platform cannot edit", async () => {
  const adapter = new MemoryAdapter(false, false);
  const p = new ProgressMessage(adapter, { platform: "mem", chatId: "ann" });
  p.update("⚙ x");
  await vi.advanceTimersByTimeAsync(10);
  await p.done();
  expect(adapter.sent).toEqual([]);
});
