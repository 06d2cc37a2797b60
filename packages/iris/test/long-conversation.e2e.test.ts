// Long conversations against the strict fake server (issue 11, checks a and b), in each api mode:
// two short turns, then a third turn of 150 tool rounds of 6 KB results. The server holds the
// window like a real provider (context_length_exceeded / "prompt is too long"), so a request
// over it would end the run; compression inside the turn must keep every request under it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { MODES, routeArgs, runIris, tempHome } from "./helpers.js";

const ROUNDS = 150;
const SUMMARY_MARK = "You compress the middle of a conversation";

let fake: FakeLlm;
let home: ReturnType<typeof tempHome>;
afterEach(async () => {
  await fake.close();
  home.cleanup();
});

interface Turn {
  rounds: number;
  summaries: number;
}

/** Each turn: `rounds` calls of `seq` (about 6 KB of distinct numbers each), then an answer. */
function scriptTurn(rounds: number, answer: string): Turn {
  const t: Turn = { rounds: 0, summaries: 0 };
  fake.setHandler((req) => {
    if (req.rawBody.toString("utf8").includes(SUMMARY_MARK)) {
      t.summaries++;
      return { text: `Summary ${t.summaries}: the agent listed number ranges with seq; all fine.` };
    }
    if (t.rounds >= rounds) return { text: answer };
    t.rounds++;
    const start = 1_000_000 + t.rounds * 1_000 + rounds * 1_000_000;
    return {
      text: `Round ${t.rounds}.`,
      toolCalls: [{ name: "terminal", arguments: { command: `seq ${start} ${start + 750}` } }],
    };
  });
  return t;
}

async function longSession(mode: (typeof MODES)[number], window: number) {
  fake = await startFakeLlm({ contextWindow: window });
  home = tempHome();
  // The tool menu is pinned too: the counts below depend on the prompt's size, not on what
  // other tools the default toolset gains.
  writeFileSync(
    join(home.home, "config.yaml"),
    `model:\n  context_window: ${window}\ntoolsets:\n  cli: [terminal, file, todo, memory, skills]\n`,
  );
  const env = { IRIS_HOME: home.home };
  // The working directory is in the system prompt; a fixed one keeps the counts below the same
  // wherever the repository is checked out (a longer prompt can tip a summary cycle, see (b)).
  const cwd = home.home;
  const args = [...routeArgs(fake.baseUrl, mode), "--max-rounds", "0"];
  scriptTurn(1, "first done");
  const one = await runIris(["-p", "Start listing ranges", ...args], { env, cwd });
  expect(one.stdout, one.stderr).toBe("first done\n");
  scriptTurn(1, "second done");
  const two = await runIris(["-c", "-p", "continue", ...args], { env, cwd });
  expect(two.stdout, two.stderr).toBe("second done\n");
  const third = scriptTurn(ROUNDS, "all ranges listed");
  const sentBefore = fake.requests.length;
  const r = await runIris(["-c", "-p", "continue with 150 more ranges", ...args], { env, cwd });
  const compressions = (r.stderr.match(/context compressed, phase/g) ?? []).length;
  return { r, third, compressions, requests: fake.requests.length - sentBefore, env };
}

describe.each(MODES)("a 150-round third turn in %s", (mode) => {
  it("(a) fits a 24K window: 0 over-window requests, 0 rejected shapes", async () => {
    const { r, third, compressions, env } = await longSession(mode, 24_000);
    expect(fake.overWindow.map((q) => q.rejected)).toEqual([]);
    expect(fake.violations.map((q) => q.rejected)).toEqual([]);
    expect(r.stderr).not.toMatch(/Context compression failed|context_exhausted/);
    expect(r.stdout).toBe("all ranges listed\n");
    expect(r.code).toBe(0);
    expect(third.rounds).toBe(ROUNDS);
    expect(compressions).toBeGreaterThan(0);
    // `iris usage` shows the cache-read share the server reported for the repeated prefixes.
    const usage = await runIris(["usage"], { env });
    const total = usage.stdout.split("\n").find((l) => l.startsWith("total"));
    expect(Number(/(\d+\.\d) %/.exec(total ?? "")?.[1])).toBeGreaterThan(50);
  }, 300_000);

  // N = 2: each round adds about 1,900 tokens (a 6 KB result and its call) to an 8K window whose
  // trigger is 6,000; the tail keeps the newest rounds (its budget is 1,200 tokens, its floor may
  // take it to 2,400), so a compression frees room for two to three rounds, never less.
  it("(b) an 8K window compresses at most once per 2 rounds and never over the window", async () => {
    const { r, third, compressions } = await longSession(mode, 8_000);
    expect(fake.overWindow.map((q) => q.rejected)).toEqual([]);
    expect(fake.violations.map((q) => q.rejected)).toEqual([]);
    expect(r.stdout).toBe("all ranges listed\n");
    expect(r.code).toBe(0);
    expect(third.rounds).toBe(ROUNDS);
    expect(compressions).toBeGreaterThan(0);
    expect(compressions).toBeLessThanOrEqual(Math.ceil(ROUNDS / 2));
    // Summaries (model calls) are rarer still: after each summary, pruning alone makes room at
    // least once more, so at most every second compression calls the model (one in three here; a
    // few dozen more prompt tokens, e.g. a longer working directory, make it one in two).
    expect(third.summaries).toBeLessThanOrEqual(Math.ceil(compressions / 2));
  }, 300_000);
});

describe("a provider window smaller than the one believed", () => {
  it("recovers from context_length_exceeded by compressing and resending once, never the same body", async () => {
    fake = await startFakeLlm({ contextWindow: 12_000 });
    home = tempHome();
    // The catalogue/config belief is 200K: the trigger never fires, only the provider's 400 tells.
    writeFileSync(join(home.home, "config.yaml"), "model:\n  context_window: 200000\n");
    scriptTurn(20, "twenty ranges listed");
    const r = await runIris(
      ["-p", "list 20 ranges", ...routeArgs(fake.baseUrl, "chat_completions"), "--max-rounds", "0"],
      { env: { IRIS_HOME: home.home } },
    );
    expect(r.stdout, r.stderr).toBe("twenty ranges listed\n");
    expect(r.code).toBe(0);
    expect(fake.overWindow.length).toBeGreaterThan(0);
    expect(r.stderr).toContain(
      "the provider said the prompt is too long: compressed the history and sending again",
    );
    // Each rejected request is followed by a smaller one, never by the same body again.
    for (const rejected of fake.overWindow) {
      const next = fake.requests[fake.requests.indexOf(rejected) + 1];
      expect(next?.rawBody.equals(rejected.rawBody)).toBe(false);
      expect(next?.rejected).toBeUndefined();
    }
    expect(fake.violations).toEqual([]);
  }, 120_000);
});
