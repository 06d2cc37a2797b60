// A model that sends tool calls whose arguments nest 20,000 levels deep (SPEC E4), several in one
// round beside an ordinary call: each deep call is refused with a tool error the model can read,
// the ordinary one runs, and nothing later in the turn walks the deep text into a stack overflow —
// the effects fingerprint, convergence, the compression's pruning of old arguments once the turn
// outgrows its window, the trajectory row, and --resume over the same output.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FakeLlm,
  type RecordedRequest,
  type Step,
  startFakeLlm,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { batch, messagesOf, readEntries, readRows, textOf, writeInput } from "./helpers.js";

const SUMMARY_MARK = "You compress the middle of a conversation";
const DEPTH = 20_000;
const deepArguments = (key: string) => `{"${key}":${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}}`;
/** Each deep call names the argument its tool takes, so the value reaches the tool's own checks. */
const DEEP_CALLS = { terminal: "command", read_file: "path", write_file: "content", todo: "todos" };
const FILES = 4;

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-batch-deepcall-");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

/** Round one: the deep calls and `echo fine`; then one big file a round (the turn outgrows its window). */
function model(req: RecordedRequest): Step {
  const usage = { input: Math.ceil(req.rawBody.length / 4), output: 10 };
  if (req.rawBody.toString("utf8").includes(SUMMARY_MARK))
    return { text: "SUMMARY: deep calls refused.", usage };
  const messages = messagesOf(req);
  const results = messages.filter((m) => m.role === "tool").length;
  if (results === 0)
    return {
      toolCalls: [
        ...Object.entries(DEEP_CALLS).map(([name, key]) => ({ name, arguments: deepArguments(key) })),
        { name: "terminal", arguments: { command: "echo fine" } },
      ],
      usage,
    };
  const read = results - Object.keys(DEEP_CALLS).length - 1;
  if (read < FILES) return { toolCalls: [{ name: "read_file", arguments: { path: `f${read}.txt` } }], usage };
  return { text: "done", usage };
}

describe("iris batch: tool calls nested 20,000 deep", () => {
  it("are tool errors the model reads; the turn, its compression and the row go on", async () => {
    writeFileSync(
      join(dir.path, "config.yaml"),
      ["model:", "  context_window: 60000", "compression:", "  protect_last_n: 2", ""].join("\n"),
    );
    const work = join(dir.path, "work");
    mkdirSync(work);
    for (let i = 0; i < FILES; i++)
      writeFileSync(join(work, `f${i}.txt`), `f${i}\n${"some words on a line\n".repeat(2_000)}`);
    fake.setHandler(model);
    const input = writeInput(dir.path, [{ id: "deep", prompt: "go deep", cwd: work }]);
    const out = join(dir.path, "out.jsonl");
    const r = await batch(dir.path, fake, { input, out, concurrency: 1 });
    expect(r.stderr).not.toMatch(/\n\s+at |RangeError|call stack/);
    expect(r.code, r.stderr).toBe(0);
    expect(readEntries(join(dir.path, "out.failed.jsonl"))).toEqual([]);
    const [row] = readRows(out);
    expect(row).toMatchObject({ key: "deep", status: "completed", termination_reason: "natural" });
    expect(row?.conversations.at(-1)).toEqual({ from: "gpt", value: "done" });

    const second = fake.requests[1];
    if (!second) throw new Error("the model was not asked again after the calls");
    const toolTexts = messagesOf(second)
      .filter((m) => m.role === "tool")
      .map(textOf);
    expect(toolTexts).toHaveLength(5);
    for (const t of toolTexts.slice(0, 4)) expect(t).toMatch(/nested deeper than 128 levels/);
    expect(toolTexts[4]).toMatch(/fine/);
    // The four deep calls (80k tokens) outgrow the 60k window: the compression's pruning left a
    // stub in their place, so the turn went on instead of ending context_exhausted.
    const pruned = fake.requests.filter((q) =>
      q.rawBody.toString("utf8").includes("arguments nested too deep"),
    );
    expect(pruned.length).toBeGreaterThan(0);
    for (const q of pruned) expect(q.rawBody.toString("utf8")).not.toContain("[".repeat(200));

    const again = await batch(dir.path, fake, { input, out, resume: true });
    expect(again.stderr).not.toMatch(/\n\s+at |RangeError/);
    expect(again.code).toBe(0);
  });
});
