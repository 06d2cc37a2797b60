// SIGKILL and --resume (SPEC D4, E4): every item has exactly one row and every side effect ran
// exactly once, whether the kill came while an item waited for its model or inside its tool call
// right after the effect (that call's receipt never finished: the item ends
// effect_outcome_uncertain instead of running it again). The long soak is bench/batch-kill-soak.ts.
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { counts, killAndResume, spreadKills } from "./kill-resume.js";

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-batch-kill-");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

describe("iris batch under kill -9", () => {
  it("resumes every killed item from its log: one row per item, every effect exactly once", async () => {
    const items = 16;
    const r = await killAndResume({
      fake,
      dir: dir.path,
      items,
      kills: spreadKills(items, 4),
      // One item at a time: with several in flight a model kill could land while a tool kill's
      // command waits to run, and what the test counts would depend on timing. bench/
      // batch-kill-soak.ts runs the concurrent version.
      concurrency: 1,
    });
    expect(r.killsDone, r.stderr).toBe(4);
    expect(r.runs).toBe(5);
    const rowKeys = counts(r.rows.map((x) => x.key));
    expect([...rowKeys.keys()].sort()).toEqual([...r.keys].sort());
    expect([...rowKeys.values()].every((n) => n === 1)).toBe(true);
    const effects = counts(r.effects);
    expect([...effects.keys()].sort()).toEqual([...r.keys].sort());
    expect([...effects.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    // The tool kills left receipts that never finished: those items end uncertain, not re-run.
    const uncertain = r.rows.filter((x) => x.termination_reason === "effect_outcome_uncertain");
    expect(uncertain.length).toBeGreaterThanOrEqual(2);
    for (const u of uncertain) expect(u).toMatchObject({ status: "failed" });
    expect(r.rows.filter((x) => x.status === "completed").length).toBe(items - uncertain.length);
    expect(fake.violations).toEqual([]);
  }, 120_000);
});
