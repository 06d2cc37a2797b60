// Bad input lines for `iris batch` (what the bin runs after parsing its flags): a line nested
// 20,000 levels deep is a malformed line with its number in the failure file, never a stack
// trace, and `--resume` over the same input does not crash either; the other items still run.
import { join } from "node:path";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { batch, promptOf, readEntries, readRows, toolOrAnswer, writeInput } from "./helpers.js";

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  fake.setHandler(toolOrAnswer);
  dir = tempDir("iris-batch-bad-");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

const DEEP = `{"prompt":"deep","meta":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;

describe("iris batch: JSON nested too deep", () => {
  it("reports a 20,000-deep line as malformed with its number; --resume runs on", async () => {
    const input = writeInput(dir.path, [{ prompt: "first" }, DEEP, { prompt: "third" }]);
    const out = join(dir.path, "out.jsonl");
    const r = await batch(dir.path, fake, { input, out, concurrency: 1 });
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).not.toMatch(/RangeError|call stack/);
    expect(r.code).toBe(0);
    expect(readRows(out).map((x) => x.conversations.find((c) => c.from === "human")?.value)).toEqual([
      "first",
      "third",
    ]);
    const failed = readEntries(join(dir.path, "out.failed.jsonl"));
    expect(failed).toEqual([
      expect.objectContaining({
        line: 2,
        status: "malformed",
        error: expect.stringMatching(/nested deeper than 128 levels/),
      }),
    ]);
    const again = await batch(dir.path, fake, { input, out, resume: true });
    expect(again.stderr).not.toMatch(/\n\s+at |RangeError/);
    expect(again.code).toBe(0);
    expect(fake.requests.map(promptOf)).toEqual(["first", "third"]);
  });
});
