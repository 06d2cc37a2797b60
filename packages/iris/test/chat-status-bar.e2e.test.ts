// The status line that stays on screen: the terminal's last row (a scroll region keeps the chat
// above it) shows model, context used and left, tokens and cost, redrawn as a turn spends and when the chat is idle
// again; the whole screen is given back at exit. A real pseudo-terminal (40 rows) and the fake LLM.
import type { FakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, type TempHome } from "./helpers.js";
import { statusOf, trackedPtys } from "./pty.js";

let fake: FakeLlm;
let home: TempHome;
let close: () => Promise<void>;
const ptys = trackedPtys();
beforeEach(async () => {
  ({ fake, home, close } = await fakeHome());
});
afterEach(async () => {
  ptys.killOpen();
  await close();
});

describe("the status line", () => {
  it("stays on the last row with model, context, tokens and cost, updated after each turn", async () => {
    fake.enqueue({ text: "hello there", usage: { input: 12_000, cacheRead: 0, output: 340, reasoning: 0 } });
    const t = ptys.start([...routeArgs(fake.baseUrl, "chat_completions")], { IRIS_HOME: home.home });
    await t.waitFor("› ");
    // Rows 1-39 scroll; row 40 holds the line.
    expect(t.raw()).toContain("\u001b[1;39r");
    expect(t.raw()).toContain("\u001b[40;1H");
    expect(statusOf(t.raw())).toMatch(
      /^custom\/fake-model · context 0\/\S+ \(0 %, \S+ left\) · 0 in 0 out · \$0\.0000$/,
    );
    t.type("hi\r");
    await t.waitFor(/hello there[\s\S]*› $/);
    expect(statusOf(t.raw())).toMatch(
      /^custom\/fake-model · context 12K\/\S+ \(\d+ %, \S+ left\) · 12K in 340 out · \$/,
    );
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
    // The scroll region is reset: the shell gets its whole screen back.
    expect(t.raw()).toContain("\u001b[r");
  }, 60_000);

  it("is redrawn during a turn: a model call's tokens show while the next call is still running", async () => {
    fake.enqueue({
      toolCalls: [{ name: "terminal", arguments: { command: "echo step-one" } }],
      usage: { input: 12_000, cacheRead: 0, output: 340, reasoning: 0 },
    });
    fake.enqueue({ fault: "stall" });
    const t = ptys.start([...routeArgs(fake.baseUrl, "chat_completions")], { IRIS_HOME: home.home });
    await t.waitFor("› ");
    t.type("go\r");
    // The second call hangs: the turn has not ended, yet the line already counts the first call.
    // (The line is redrawn when the first call ends, a moment before the second request is sent.)
    await t.waitFor(() => fake.requests.length === 2, 30_000);
    await t.waitFor(() => /12K in 340 out/.test(statusOf(t.raw()) ?? ""), 30_000);
    t.type("\u001b");
    await t.waitFor(/› $/);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);
});
