// `iris worker` (runWorker, what the bin calls) on a real PostgreSQL: the first stop signal lets
// the running item finish; a second hands it back and another worker goes on from its log (its
// tool not run again); and a worker whose server went away says so, and runs items again once
// the server is back.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import {
  type FakeLlm,
  type PostgresServer,
  type RecordedRequest,
  type Step,
  skipWithoutPostgres,
  startFakeLlm,
  startPostgres,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runWorker } from "../src/worker.js";
import { batch, messagesOf, promptOf, readRows, writeInput } from "./helpers.js";

let fake: FakeLlm;
let dir: TempDir;
let pg: PostgresServer;
let n = 0;
beforeAll(async () => {
  if (!skipWithoutPostgres()) pg = await startPostgres();
});
afterAll(async () => {
  await pg?.close();
});
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-batch-worker-");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

/** The profile lives in home/ (a tool that writes into a profile's folder is asked, and nobody can answer). */
function envOf(lockSeconds = 2): Record<string, string> {
  const home = join(dir.path, "home");
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, "config.yaml"),
    `queue:\n  name: w${process.pid}-${++n}\n  lock_seconds: ${lockSeconds}\n  stalled_check_seconds: 1\n` +
      `batch:\n  approvals: allow\n  worker_dir: ${join(dir.path, "work")}\n`,
  );
  return {
    IRIS_HOME: home,
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    IRIS_DATABASE_URL: pg.url(),
  };
}

function startWorker(env: Record<string, string>) {
  const stop = new AbortController();
  const handBack = new AbortController();
  let stderr = "";
  const stream = new Writable({
    write(chunk, _enc, done) {
      stderr += String(chunk);
      done();
    },
  });
  let ended = false;
  const done = runWorker({
    concurrency: 2,
    env,
    stderr: stream,
    stop: stop.signal,
    handBack: handBack.signal,
  }).finally(() => {
    ended = true;
  });
  return { stop, handBack, done, stderr: () => stderr, ended: () => ended };
}

async function until(test: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 30_000;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => {
    open = r;
  });
  return { wait, open };
}

const afterTool = (req: RecordedRequest) => messagesOf(req).at(-1)?.role === "tool";

/** The item runs `echo >> effects`, then its answer waits for `answer` (the first time). */
function toolThenGatedAnswer(effects: string, answer: Promise<void>) {
  let gated = false;
  return async (req: RecordedRequest): Promise<Step> => {
    if (!afterTool(req))
      return { toolCalls: [{ name: "terminal", arguments: { command: `echo ran >> '${effects}'` } }] };
    if (!gated) {
      gated = true;
      await answer;
    }
    return { text: `done ${promptOf(req)}` };
  };
}

describe.skipIf(skipWithoutPostgres())("iris worker", () => {
  it("lets a running item finish on the first stop signal", async () => {
    const env = envOf();
    const effects = join(dir.path, "effects.txt");
    const answer = gate();
    fake.setHandler(toolThenGatedAnswer(effects, answer.wait));
    const worker = startWorker(env);
    const input = writeInput(dir.path, [{ id: "only", prompt: "work" }]);
    const out = join(dir.path, "out.jsonl");
    const producer = batch(dir.path, fake, { input, out, queue: true }, env);
    await until(() => fake.requests.filter(afterTool).length === 1, "the item to wait for its answer");
    worker.stop.abort();
    await until(
      () => /1 running item\(s\) finish first/.test(worker.stderr()),
      "the worker to stop taking items",
    );
    expect(worker.ended()).toBe(false);
    answer.open();
    expect(await worker.done).toBe(0);
    expect((await producer).code).toBe(0);
    expect(readRows(out).map((r) => [r.key, r.status])).toEqual([["only", "completed"]]);
    expect(readFileSync(effects, "utf8")).toBe("ran\n");
  });

  it("hands a running item back on the second signal; another worker goes on from its log", async () => {
    const env = envOf();
    const effects = join(dir.path, "effects.txt");
    const never = gate();
    fake.setHandler(toolThenGatedAnswer(effects, never.wait));
    const first = startWorker(env);
    const input = writeInput(dir.path, [{ id: "only", prompt: "work" }]);
    const out = join(dir.path, "out.jsonl");
    const producer = batch(dir.path, fake, { input, out, queue: true }, env);
    await until(() => fake.requests.filter(afterTool).length === 1, "the item to wait for its answer");
    first.stop.abort();
    first.handBack.abort();
    expect(await first.done).toBe(0);
    expect(first.stderr()).toMatch(/handing 1 running item\(s\) back/);
    const second = startWorker(env);
    expect((await producer).code).toBe(0);
    second.stop.abort();
    await second.done;
    expect(readRows(out).map((r) => [r.key, r.status])).toEqual([["only", "completed"]]);
    // The tool ran once; the second worker's only request was the one after it.
    expect(readFileSync(effects, "utf8")).toBe("ran\n");
    expect(fake.requests.map(afterTool)).toEqual([false, true, true]);
    // Its log went once the queue held its row (and the run's folder with it).
    expect(readdirSync(join(dir.path, "work"))).toEqual([]);
    never.open();
  });

  it("says when its server went away and came back, and runs items after", async () => {
    const env = envOf();
    fake.setHandler((req) => ({ text: `answer to ${promptOf(req)}` }));
    const worker = startWorker(env);
    await until(() => /running batch items/.test(worker.stderr()), "the worker to start");
    pg.stop("immediate");
    await until(() => /does not answer/.test(worker.stderr()), "the worker to notice");
    await pg.start();
    await until(() => /answers again/.test(worker.stderr()), "the worker to reconnect");
    const input = writeInput(dir.path, [{ id: "after", prompt: "back" }]);
    const out = join(dir.path, "out.jsonl");
    expect((await batch(dir.path, fake, { input, out, queue: true }, env)).code).toBe(0);
    worker.stop.abort();
    expect(await worker.done).toBe(0);
    expect(readRows(out).map((r) => r.status)).toEqual(["completed"]);
  });

  it("a waiting `iris batch --queue` rides out its server going away", async () => {
    const env = envOf(30); // the outage is shorter than a claim: nobody's item is retried
    const answers = gate();
    fake.setHandler(async (req) => {
      await answers.wait;
      return { text: `answer to ${promptOf(req)}` };
    });
    const worker = startWorker(env);
    const input = writeInput(dir.path, [
      { id: "a", prompt: "one" },
      { id: "b", prompt: "two" },
    ]);
    const out = join(dir.path, "out.jsonl");
    let said = "";
    const stderr = new Writable({
      write(chunk, _enc, done) {
        said += String(chunk);
        done();
      },
    });
    const producer = batch(dir.path, fake, { input, out, queue: true, stderr }, env);
    await until(() => fake.requests.length === 2, "both items to be running");
    pg.stop("immediate");
    await until(() => /server does not answer .*; retrying/.test(said), "the producer to notice");
    await pg.start();
    answers.open();
    expect((await producer).code).toBe(0);
    expect(said).toMatch(/server answers again/);
    worker.stop.abort();
    await worker.done;
    expect(
      readRows(out)
        .map((r) => [r.key, r.status])
        .sort(),
    ).toEqual([
      ["a", "completed"],
      ["b", "completed"],
    ]);
    expect(fake.requests).toHaveLength(2);
  });
});
