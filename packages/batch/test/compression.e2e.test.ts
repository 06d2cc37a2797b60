// A batch item whose turn outgrows the context window (issue 14): it is compressed inside its JSONL
// log like any session, and its row is read back from that log — the compacted history that the
// model saw last, and the usage of every call, before and after the split.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RecordedRequest, Step } from "@iris/testkit";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { batch, messagesOf, readRows, writeInput } from "./helpers.js";

const SUMMARY_MARK = "You compress the middle of a conversation";
const FILES = 5;

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-batch-compress-");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

const inputTokensOf = (req: RecordedRequest) => Math.ceil(req.rawBody.length / 4);

/** Reads f0…f4 one per round (each about 10k tokens), then answers. */
function reader(req: RecordedRequest): Step {
  // The prompt's size as a provider would count it (about four characters a token).
  const usage = { input: inputTokensOf(req), output: 10 };
  if (req.rawBody.toString("utf8").includes(SUMMARY_MARK))
    return { text: "SUMMARY: five files read.", usage };
  // Pruning shortens old tool results but keeps them: their count is the files read so far.
  const next = messagesOf(req).filter((m) => m.role === "tool").length;
  if (next < FILES) return { toolCalls: [{ name: "read_file", arguments: { path: `f${next}.txt` } }], usage };
  return { text: "all files read", usage };
}

describe("iris batch with a compression", () => {
  it("compresses the item in its JSONL log and writes the row from it", async () => {
    writeFileSync(
      join(dir.path, "config.yaml"),
      ["model:", "  context_window: 60000", "compression:", "  protect_last_n: 2", ""].join("\n"),
    );
    const work = join(dir.path, "work");
    mkdirSync(work);
    for (let i = 0; i < FILES; i++)
      writeFileSync(join(work, `f${i}.txt`), `f${i}\n${"some words on a line\n".repeat(2_000)}`);
    fake.setHandler(reader);
    const input = writeInput(dir.path, [{ id: "big", prompt: "read the five files", cwd: work }]);
    const out = join(dir.path, "out.jsonl");
    const r = await batch(dir.path, fake, { input, out, concurrency: 1 });
    expect(r.code, r.stderr).toBe(0);
    const [row] = readRows(out);
    expect(row).toMatchObject({ key: "big", status: "completed", termination_reason: "natural" });
    expect(row?.conversations.at(-1)).toEqual({ from: "gpt", value: "all files read" });

    // The history shrank mid-turn: a request was smaller than the one before it (only a
    // compression makes a turn's prompt shrink; the model never drops anything itself).
    const turnCalls = fake.requests.filter((q) => !q.rawBody.toString("utf8").includes(SUMMARY_MARK));
    const sizes = turnCalls.map((q) => q.rawBody.length);
    expect(sizes.some((size, i) => i > 0 && size < (sizes[i - 1] ?? 0))).toBe(true);
    // The row is the compacted history (not every file's text) with every turn call's usage.
    expect(JSON.stringify(row?.conversations).length).toBeLessThan(Math.max(...sizes));
    expect(row?.api_calls).toBe(turnCalls.length);
    expect(row?.usage.input_tokens).toBe(turnCalls.reduce((sum, q) => sum + inputTokensOf(q), 0));
  });
});
