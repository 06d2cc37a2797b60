import { join } from "node:path";
import { loadProfile, openStore, type Store, StoredRecords } from "@iris/host";
import { ZERO_USAGE } from "@iris/llm";
import { type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { formatUsageTotals } from "./usage-totals.js";

let dir: TempDir;
let store: Store;
let records: StoredRecords;
beforeEach(async () => {
  dir = tempDir("usage-totals");
  store = openStore(join(dir.path, "state.db"));
  // What `iris usage --by` reads through: host's records of the profile.
  const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
  if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
  records = await StoredRecords.open(profile);
});
afterEach(async () => {
  await records.close();
  await store.close();
  dir.cleanup();
});

async function call(sessionId: string, model: string, input: number, costUsd: number): Promise<void> {
  await store.recordUsage({
    sessionId,
    provider: "openai",
    model,
    usage: { ...ZERO_USAGE, inputTokens: input, cacheReadTokens: input / 2, outputTokens: 10 },
    costUsd,
    latencyMs: 5,
    status: "ok",
  });
}

it("sums every session's calls per model (costliest first) and per UTC day, with a total", async () => {
  const a = await store.createSession({ source: "cli", model: "gpt-4o", provider: "openai" });
  const b = await store.createSession({ source: "gateway", model: "gpt-4o-mini", provider: "openai" });
  await call(a.id, "gpt-4o", 1000, 0.5);
  await call(a.id, "gpt-4o", 1000, 0.5);
  await call(b.id, "gpt-4o-mini", 4000, 0.01);
  const byModel = (await formatUsageTotals(records, "model", 30)).split("\n");
  expect(byModel[1]).toMatch(/^openai\/gpt-4o\s+2\s+2,000\s+50\.0 %\s+20\s+\$1\.0000$/);
  expect(byModel[2]).toMatch(/^openai\/gpt-4o-mini\s+1\s+4,000\s+50\.0 %\s+10\s+\$0\.0100$/);
  expect(byModel[3]).toMatch(/^total\s+3\s+6,000\s+50\.0 %\s+30\s+\$1\.0100$/);

  // Seen two days later: today's calls are on their own day, inside a 3-day range, not a 1-day one.
  const later = Date.now() + 2 * 86_400_000;
  const today = new Date().toISOString().slice(0, 10);
  const byDay = await formatUsageTotals(records, "day", 3, later);
  expect(byDay).toMatch(new RegExp(`^${today}\\s+3\\s+6,000\\s+50\\.0 %\\s+30\\s+\\$1\\.0100$`, "m"));
  expect(byDay).toContain("(the last 3 days (UTC))");
  expect(await formatUsageTotals(records, "day", 1, later)).toBe("no API calls in today (UTC)\n");
});
