// Issue 30's multi-process check: three `iris worker` processes (the real bin, each with its own
// profile and its own fake LLM server, sharing one batch.worker_dir) on one PostgreSQL, a 300-item
// batch through `iris batch --queue`, and one worker SIGKILLed mid-run while one of its items
// waits for the model right after its tool ran. Then every item is in OUT exactly once, every
// recorded effect ran once, and the killed worker's item was finished by another worker from its
// log (its tool not called again). The same on Redis with fewer items. (batch-workers.ts)
import { skipWithoutPostgres, skipWithoutRedis, startPostgres, startRedis } from "@iris/testkit";
import { afterEach, describe, it } from "vitest";
import { batchWithKilledWorker } from "./batch-workers.js";
import { type Cleanups, runCleanups } from "./processes.js";

const cleanups: Cleanups = [];
afterEach(() => runCleanups(cleanups));

describe.skipIf(skipWithoutPostgres())("iris worker × 3 on PostgreSQL", () => {
  it("runs a 300-item batch with one worker SIGKILLed: every item once, no effect twice", {
    timeout: 300_000,
  }, async () => {
    const pg = await startPostgres();
    cleanups.push(pg.close);
    await batchWithKilledWorker("postgres", pg.url(), 300, cleanups);
  });
});

describe.skipIf(skipWithoutRedis())("iris worker × 3 on Redis", () => {
  it("runs a 60-item batch with one worker SIGKILLed: every item once, no effect twice", {
    timeout: 300_000,
  }, async () => {
    const redis = await startRedis();
    cleanups.push(redis.close);
    await batchWithKilledWorker("redis", redis.url, 60, cleanups);
  });
});
