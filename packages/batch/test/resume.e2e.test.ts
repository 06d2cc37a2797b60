// Exact resume (issue 18, against Hermes's six resume bugs): keys, not prompts or positions;
// duplicates stay two items; a torn last row is redone; a changed input is reported; the budget
// stops new items and marks the rest, and --rerun runs exactly those again.
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, readdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { batch, messagesOf, promptOf, readEntries, readRows, toolOrAnswer, writeInput } from "./helpers.js";

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  fake.setHandler(toolOrAnswer);
  dir = tempDir("iris-batch-resume-");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

const prompts = () => fake.requests.map(promptOf);
const keysOf = (path: string) => readRows(path).map((r) => r.key);

describe("iris batch --resume", () => {
  it("runs exactly the items without a row: duplicates twice, done ones never, a torn row again", async () => {
    const input = writeInput(dir.path, [
      { prompt: "one" },
      { prompt: "same" },
      { prompt: "same" },
      { id: "x", prompt: "same" },
      { prompt: "five" },
      { prompt: "six" },
    ]);
    const out = join(dir.path, "out.jsonl");
    const first = await batch(dir.path, fake, { input, out, maxItems: 3, concurrency: 1 });
    expect(first.code).toBe(0);
    expect(prompts()).toEqual(["one", "same", "same"]);
    const firstKeys = keysOf(out);
    expect(new Set(firstKeys).size).toBe(3);

    // The last row is torn, as by a kill in the middle of its write.
    const text = readFileSync(out, "utf8");
    truncateSync(out, text.length - 40);
    fake.requests.length = 0;
    const second = await batch(dir.path, fake, { input, out, resume: true, concurrency: 1 });
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/half-written last row \(\d+ bytes\).*runs again/);
    // The torn item (the second "same") runs again; the two whole rows do not.
    expect(prompts()).toEqual(["same", "same", "five", "six"]);
    const keys = keysOf(out);
    expect(keys).toHaveLength(6);
    expect(new Set(keys).size).toBe(6);
    expect(keys).toContain("x");

    fake.requests.length = 0;
    const third = await batch(dir.path, fake, { input, out, resume: true });
    expect(third.code).toBe(0);
    expect(fake.requests).toHaveLength(0);
    expect(third.stderr).toMatch(/0 ran, 6 already done/);
  });

  it("refuses a second run on the same output while the first lives, and takes over a dead one's lock", async () => {
    const input = writeInput(dir.path, [{ prompt: "a" }]);
    const out = join(dir.path, "out.jsonl");
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      writeFileSync(join(dir.path, "out.lock"), `${other.pid}\n`);
      const r = await batch(dir.path, fake, { input, out });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`another iris batch (pid ${other.pid}) is writing this output`);
      expect(fake.requests).toHaveLength(0);
    } finally {
      other.kill("SIGKILL");
      await new Promise((resolve) => other.once("exit", resolve));
    }
    const after = await batch(dir.path, fake, { input, out });
    expect(after.code).toBe(0);
    expect(existsSync(join(dir.path, "out.lock"))).toBe(false);
  });

  it("an interrupt leaves no row for the items in flight; --resume runs them", async () => {
    const stop = new AbortController();
    const logs = join(dir.path, "out.trajectories");
    let inFlight: string[] = [];
    fake.setHandler((req) => {
      if (promptOf(req) !== "slow") return toolOrAnswer(req);
      // The running item's conversation is written to its own JSONL log as it goes.
      inFlight = readdirSync(logs).map((f) => readFileSync(join(logs, f), "utf8"));
      stop.abort(); // Ctrl-C while this item waits for its model
      return { fault: "stall" };
    });
    const input = writeInput(dir.path, [{ prompt: "fast" }, { prompt: "slow" }, { prompt: "later" }]);
    const out = join(dir.path, "out.jsonl");
    const r = await batch(dir.path, fake, { input, out, concurrency: 1, signal: stop.signal });
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/interrupted\s+yes: finish with --resume/);
    expect(readRows(out).map((x) => x.conversations[1]?.value)).toEqual(["fast"]);
    expect(inFlight).toHaveLength(1);
    const lines = (inFlight[0] ?? "")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(["prompt", "message"]);
    expect(lines[1].message).toEqual({ role: "user", content: "slow" });
    // Interrupted: no row, and the log stays; --resume continues its turn (no second user message).
    expect(readdirSync(logs)).toHaveLength(1);

    fake.setHandler(toolOrAnswer);
    fake.requests.length = 0;
    const resumed = await batch(dir.path, fake, { input, out, resume: true, concurrency: 1 });
    expect(resumed.code).toBe(0);
    expect(prompts()).toEqual(["slow", "later"]);
    const first = fake.requests[0];
    expect(first && messagesOf(first).filter((m) => m.role === "user")).toHaveLength(1);
    expect(readRows(out)).toHaveLength(3);
    expect(existsSync(logs)).toBe(false);
  });

  it("reports a changed input: grown quietly goes on, edited lines stop until --force", async () => {
    const input = writeInput(dir.path, [{ prompt: "a" }, { prompt: "b" }]);
    const out = join(dir.path, "out.jsonl");
    expect((await batch(dir.path, fake, { input, out })).code).toBe(0);

    appendFileSync(input, `${JSON.stringify({ prompt: "c" })}\n`);
    fake.requests.length = 0;
    const grown = await batch(dir.path, fake, { input, out, resume: true });
    expect(grown.code).toBe(0);
    expect(grown.stderr).toMatch(/input file changed since this run began/);
    expect(prompts()).toEqual(["c"]);

    writeFileSync(
      input,
      [{ prompt: "a" }, { prompt: "B edited" }, { prompt: "c" }].map((l) => JSON.stringify(l)).join("\n"),
    );
    fake.requests.length = 0;
    const edited = await batch(dir.path, fake, { input, out, resume: true });
    expect(edited.code).toBe(2);
    expect(edited.stderr).toMatch(/1 item\(s\) already in the output match no line of the input now/);
    expect(edited.stderr).toMatch(/--force/);
    expect(fake.requests).toHaveLength(0);

    const forced = await batch(dir.path, fake, { input, out, resume: true, force: true });
    expect(forced.code).toBe(0);
    expect(prompts()).toEqual(["B edited"]);
    expect(readRows(out)).toHaveLength(4);
  });

  it("an edited line that keeps its id stops the resume until --force, which runs that item again", async () => {
    const input = writeInput(dir.path, [
      { id: "a", prompt: "first" },
      { id: "b", prompt: "second", tag: 1 },
    ]);
    const out = join(dir.path, "out.jsonl");
    expect((await batch(dir.path, fake, { input, out })).code).toBe(0);
    writeInput(dir.path, [
      { id: "a", prompt: "first" },
      { id: "b", prompt: "second, edited", tag: 1 },
    ]);
    fake.requests.length = 0;
    const edited = await batch(dir.path, fake, { input, out, resume: true });
    expect(edited.code).toBe(2);
    expect(edited.stderr).toMatch(
      /1 item\(s\) with a row were edited in the input since \(their id is kept\): b/,
    );
    expect(edited.stderr).toMatch(/--force/);
    expect(fake.requests).toHaveLength(0);
    // Metadata counts as the line too.
    writeInput(dir.path, [
      { id: "a", prompt: "first", tag: 2 },
      { id: "b", prompt: "second", tag: 1 },
    ]);
    expect((await batch(dir.path, fake, { input, out, resume: true })).code).toBe(2);

    writeInput(dir.path, [
      { id: "a", prompt: "first" },
      { id: "b", prompt: "second, edited", tag: 1 },
    ]);
    const forced = await batch(dir.path, fake, { input, out, resume: true, force: true });
    expect(forced.code).toBe(0);
    expect(prompts()).toEqual(["second, edited"]);
    const rows = readRows(out);
    expect(rows.map((r) => r.key).sort()).toEqual(["a", "b"]);
    expect(rows.find((r) => r.key === "b")?.conversations?.find((c) => c.from === "human")?.value).toBe(
      "second, edited",
    );
  });

  it("--budget-usd stops starting items and marks the rest; --rerun budget_exceeded runs exactly those", async () => {
    // gpt-4o from the catalogue: 100k input + 1k output tokens cost well over $0.10 a call.
    fake.setHandler(() => ({ text: "pricey", usage: { input: 100_000, output: 1000 } }));
    const input = writeInput(
      dir.path,
      ["p1", "p2", "p3", "p4", "p5"].map((p) => ({ prompt: p })),
    );
    const out = join(dir.path, "out.jsonl");
    const route = { provider: "openai", model: "gpt-4o" };
    const r = await batch(dir.path, fake, { input, out, concurrency: 1, budgetUsd: 0.5, ...route });
    expect(r.code).toBe(1);
    const rows = readRows(out);
    expect(rows.map((x) => x.status)).toEqual([
      "completed",
      "completed",
      "budget_exceeded",
      "budget_exceeded",
      "budget_exceeded",
    ]);
    expect(rows[0]!.cost_usd).toBeGreaterThan(0.1);
    expect(rows[2]).toMatchObject({ termination_reason: "batch_budget_reached", api_calls: 0, cost_usd: 0 });
    expect(fake.requests).toHaveLength(2);
    expect(r.stderr).toMatch(/budget\s+reached/);

    fake.requests.length = 0;
    const plain = await batch(dir.path, fake, { input, out, resume: true, budgetUsd: 10, ...route });
    expect(fake.requests).toHaveLength(0); // a row is a row: resume alone never re-runs it
    expect(plain.code).toBe(1);

    const rerun = await batch(dir.path, fake, {
      input,
      out,
      resume: true,
      rerun: ["budget_exceeded"],
      budgetUsd: 10,
      ...route,
    });
    expect(rerun.code).toBe(0);
    expect(prompts().sort()).toEqual(["p3", "p4", "p5"]);
    const after = readRows(out);
    expect(after.map((x) => x.status)).toEqual(Array(5).fill("completed"));
    expect(new Set(after.map((x) => x.key)).size).toBe(5);
    expect(readEntries(join(dir.path, "out.failed.jsonl"))).toEqual([]);
  });
});
