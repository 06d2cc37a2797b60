// `iris batch --queue` with `iris worker` (in this process, through the same functions the bin
// calls) on a real PostgreSQL and a real Redis: OUT is written exactly as an in-process run writes
// it, resume never enqueues an item that has a row, and a producer stopped while the workers go
// on collects their results on --resume without running anything again.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import {
  type FakeLlm,
  type PostgresServer,
  type RedisServer,
  skipWithoutPostgres,
  skipWithoutRedis,
  startFakeLlm,
  startPostgres,
  startRedis,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runWorker } from "../src/worker.js";
import { batch, promptOf, readRows, toolOrAnswer, writeInput } from "./helpers.js";

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  fake.setHandler(toolOrAnswer);
  dir = tempDir("iris-batch-queue-");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

function sink(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

/** An `iris worker` in this process; `stop()` ends it as SIGTERM does. */
function startWorker(env: Record<string, string>, concurrency = 2) {
  const stop = new AbortController();
  const handBack = new AbortController();
  const err = sink();
  const done = runWorker({
    concurrency,
    env,
    stderr: err.stream,
    stop: stop.signal,
    handBack: handBack.signal,
  });
  return {
    stderr: err.text,
    stop: async () => {
      stop.abort();
      return done;
    },
  };
}

async function until(test: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 30_000;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A row without what differs from run to run (times, the items' temp folders). */
const comparable = (r: Record<string, unknown>) =>
  JSON.parse(
    JSON.stringify({ ...r, duration_ms: 0 })
      .replace(/iris-batch-item-[A-Za-z0-9]+/g, "ITEM_DIR")
      .replace(/call_\d+/g, "CALL_ID"),
  );

function budgetTest(envOf: () => Record<string, string>) {
  it("--budget-usd takes back the items no worker began; --rerun budget_exceeded runs them", async () => {
    // gpt-4o from the catalogue: 100k input + 1k output tokens cost well over $0.10 a call.
    const env = envOf();
    const out = join(dir.path, "out.jsonl");
    // A third item waits until the producer has taken the rest back (one worker, one at a time).
    fake.setHandler(async () => {
      if (fake.requests.length === 3)
        await until(() => readRows(out).some((x) => x.status === "budget_exceeded"), "the budget rows");
      return { text: "pricey", usage: { input: 100_000, output: 1000 } };
    });
    const input = writeInput(
      dir.path,
      Array.from({ length: 8 }, (_, i) => ({ id: `b${i}`, prompt: `p${i}` })),
    );
    const route = { provider: "openai", model: "gpt-4o" };
    const worker = startWorker(env, 1);
    const r = await batch(dir.path, fake, { input, out, queue: true, budgetUsd: 0.5, ...route }, env);
    expect(r.code).toBe(1);
    const rows = readRows(out);
    expect(rows.map((x) => x.key).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `b${i}`));
    const ran = rows.filter((x) => x.status === "completed");
    const stopped = rows.filter((x) => x.status === "budget_exceeded");
    expect(ran.length + stopped.length).toBe(8);
    // Two items reach the budget; the one worker may have begun a third meanwhile, no more.
    expect(ran.length).toBeGreaterThanOrEqual(2);
    expect(ran.length).toBeLessThanOrEqual(3);
    for (const x of stopped)
      expect(x).toMatchObject({ termination_reason: "batch_budget_reached", api_calls: 0 });
    expect(fake.requests).toHaveLength(ran.length);

    const rerun = await batch(
      dir.path,
      fake,
      { input, out, queue: true, resume: true, rerun: ["budget_exceeded"], budgetUsd: 100, ...route },
      env,
    );
    expect(rerun.code).toBe(0);
    await worker.stop();
    expect(readRows(out).map((x) => x.status)).toEqual(Array(8).fill("completed"));
    expect(fake.requests).toHaveLength(8);
  });
}

function queueSuite(
  backend: "postgres" | "redis",
  start: () => Promise<{ url: string; close(): Promise<void> }>,
) {
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server?.close();
  });
  const envOf = (name: string): Record<string, string> => {
    writeFileSync(
      join(dir.path, "config.yaml"),
      `queue:\n  backend: ${backend}\n  name: ${name}\nbatch:\n  approvals: allow\n  worker_dir: ${join(dir.path, "work")}\n`,
    );
    return {
      IRIS_HOME: dir.path,
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      [backend === "postgres" ? "IRIS_DATABASE_URL" : "IRIS_REDIS_URL"]: server.url,
    };
  };
  let n = 0;
  const queueName = () => `t${process.pid}-${++n}`;

  it(`writes OUT as an in-process run does (${backend})`, async () => {
    const env = envOf(queueName());
    const lines = [
      { id: "a", prompt: "hello" },
      { prompt: "TOOL:echo from-a-tool" },
      { id: "c", prompt: "third", topic: "kept as metadata" },
      { prompt: "hello" },
    ];
    const input = writeInput(dir.path, lines);
    const local = join(dir.path, "local.jsonl");
    expect((await batch(dir.path, fake, { input, out: local }, env)).code).toBe(0);
    const worker = startWorker(env);
    const out = join(dir.path, "out.jsonl");
    const queued = await batch(dir.path, fake, { input, out, queue: true }, env);
    expect(queued.stderr).toMatch(new RegExp(`4 item\\(s\\) in the ${backend} queue`));
    expect(queued.code).toBe(0);
    expect(await worker.stop()).toBe(0);
    const byKey = (rows: Record<string, unknown>[]) =>
      Object.fromEntries(rows.map((r) => [r.key as string, comparable(r)]));
    const rows = readRows(out) as unknown as Record<string, unknown>[];
    expect(rows).toHaveLength(4);
    expect(byKey(rows)).toEqual(byKey(readRows(local) as unknown as Record<string, unknown>[]));
    expect(worker.stderr()).toMatch(/running batch items from the .* queue .*-batch/);
  });

  it(`resumes: an item with a row is never enqueued again, and a stopped producer collects later (${backend})`, async () => {
    const env = envOf(queueName());
    const input = writeInput(
      dir.path,
      Array.from({ length: 6 }, (_, i) => ({ id: `k${i}`, prompt: `p${i}` })),
    );
    const out = join(dir.path, "out.jsonl");
    const worker = startWorker(env);
    expect((await batch(dir.path, fake, { input, out, queue: true, maxItems: 2 }, env)).code).toBe(0);
    expect(
      readRows(out)
        .map((r) => r.key)
        .sort(),
    ).toEqual(["k0", "k1"]);
    await worker.stop();

    // No worker now: the producer enqueues the rest and is stopped (Ctrl-C) while they wait.
    const stop = new AbortController();
    const err = sink();
    const producer = batch(
      dir.path,
      fake,
      { input, out, queue: true, resume: true, signal: stop.signal, stderr: err.stream },
      env,
    );
    await until(() => /4 item\(s\) in the/.test(err.text()), "the items to be enqueued");
    stop.abort();
    expect((await producer).code).toBe(130);
    expect(readRows(out)).toHaveLength(2);

    // The workers run them meanwhile; a later --resume only collects.
    const later = startWorker(env, 3);
    await until(() => fake.requests.length === 6, "the workers to run the four items");
    const resumed = await batch(dir.path, fake, { input, out, queue: true, resume: true }, env);
    expect(resumed.code).toBe(0);
    await later.stop();
    const keys = readRows(out).map((r) => r.key);
    expect(keys.sort()).toEqual(["k0", "k1", "k2", "k3", "k4", "k5"]);
    // Each item was asked for exactly once.
    expect(fake.requests.map(promptOf).sort()).toEqual(["p0", "p1", "p2", "p3", "p4", "p5"]);
  });

  if (backend === "postgres") budgetTest(() => envOf(queueName()));
}

describe.skipIf(skipWithoutPostgres())("iris batch --queue on PostgreSQL", () => {
  queueSuite("postgres", async () => {
    const pg: PostgresServer = await startPostgres();
    return { url: pg.url(), close: pg.close };
  });

  it("says which variable is missing when the queue has no URL", async () => {
    writeFileSync(join(dir.path, "config.yaml"), "queue:\n  url_env: MY_QUEUE_URL\n");
    const input = writeInput(dir.path, [{ prompt: "x" }]);
    const r = await batch(dir.path, fake, { input, out: join(dir.path, "o.jsonl"), queue: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/queue\.url_env: MY_QUEUE_URL is not set/);
  });
});

describe.skipIf(skipWithoutRedis())("iris batch --queue on Redis", () => {
  queueSuite("redis", async () => {
    const r: RedisServer = await startRedis();
    return { url: r.url, close: r.close };
  });
});
