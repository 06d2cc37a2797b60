// Cron on a Postgres profile (src/cron-queue.ts, src/cron-deliveries.ts) with real parts: the
// store and the queue on a throw-away Postgres server, the fake LLM. Two leaders in a race (both
// believing they lead, as one whose connection died unnoticed would) enqueue a slot once and it
// runs once; a retried tick whose run was recorded does not run again; the gateway sends a
// delivery once through its outbox, even when it is handed over twice.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { IrisProcess, loadProfile, openProfileQueue, type Profile } from "@iris/host";
import { getLogger } from "@iris/llm";
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
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  CRON_QUEUE,
  CronLeader,
  type CronTick,
  type CronTickResult,
  cronJobId,
  type Delivery,
  deliveryQueue,
  runCronTick,
} from "../src/cron-queue.js";
import { Gateway } from "../src/runner.js";
import { openCronState } from "../src/state/cron-open.js";
import { openGatewayTables } from "../src/state/index.js";
import { MemoryAdapter } from "./memory-adapter.js";

let pg: PostgresServer;
let redis: RedisServer | undefined;
let fake: FakeLlm;
let dir: TempDir;
let schemas = 0;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  if (skipWithoutPostgres()) return;
  pg = await startPostgres();
  fake = await startFakeLlm();
  fake.setHandler(() => ({ text: "the report" }));
}, 60_000);
afterAll(async () => {
  await redis?.close();
  await fake?.close();
  await pg?.close();
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A profile on its own schema and queue name; `sqlite`: its store stays state.db. */
function profileOf(sqlite = false, queue: "postgres" | "redis" = "postgres"): Profile {
  dir = tempDir("iris-cron-queue");
  cleanups.push(() => dir.cleanup());
  const n = ++schemas;
  writeFileSync(
    join(dir.path, "config.yaml"),
    `model: {provider: fake, name: fake-model}\nproviders: {fake: {base_url: "${fake.baseUrl}", api_mode: chat_completions}}\n` +
      (sqlite ? "" : `store: {backend: postgres, schema: cronq_${n}}\n`) +
      `queue: {backend: ${queue}, name: cronq-${process.pid}-${n}}\ngateway: {allow_all: true}\n`,
  );
  const p = loadProfile({
    env: { IRIS_HOME: dir.path, IRIS_DATABASE_URL: pg.url(), IRIS_REDIS_URL: redis?.url ?? "" },
    registerSecret: () => {},
  });
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return p;
}

async function queueOf<D, R>(profile: Profile, purpose: string) {
  const q = await openProfileQueue<D, R>(profile, purpose);
  cleanups.push(() => q.close());
  return q;
}

async function until(test: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const end = Date.now() + 30_000;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const T0 = Date.parse("2026-12-01T09:00:00Z");
const MIN = 60_000;
const alwaysLeads = { lead: async () => true, release: async () => {} };

describe.skipIf(skipWithoutPostgres())("cron ticks as queue jobs", () => {
  // The queue on BullMQ's Postgres backend, and on Redis (its tested twin); the lock is Postgres's.
  it.each(["postgres", "redis"] as const)(
    "two leaders in a race enqueue a slot once; it runs once, and a retried tick does not run again (queue on %s)",
    async (backend) => {
      if (backend === "redis") {
        if (skipWithoutRedis()) return;
        redis ??= await startRedis();
      }
      const requestsBefore = fake.requests.length;
      const profile = profileOf(false, backend);
      const iris = await IrisProcess.open({ profile, platform: "cron", env: {} });
      cleanups.push(() => iris.close());
      const state = await openCronState(iris);
      const job = await state.add(
        { schedule: "every 30m", platform: "irc", chatId: "#team", missed: "run", prompt: "report" },
        T0,
      );
      const ticks = await queueOf<CronTick, CronTickResult>(profile, CRON_QUEUE);
      const leaders = [0, 1].map(() => new CronLeader(state, alwaysLeads, ticks, getLogger()));
      const waits = await Promise.all(leaders.map((l) => l.enqueueDue(T0 + 30 * MIN + 5)));
      // Both look again within a tick (the next slot is further), for new jobs and "run now".
      expect(waits).toEqual([MIN, MIN]);
      const counts = await ticks.counts();
      expect(counts.waiting + counts.delayed + counts.active).toBe(1);
      const slot = T0 + 30 * MIN;
      expect((await ticks.get(cronJobId(job.id, slot)))?.state).toBe("waiting");

      const delivered = await queueOf<Delivery, unknown>(profile, deliveryQueue("irc"));
      const deps = { iris, cwd: dir.path, state, deliveries: async () => delivered };
      const worker = await ticks.work((t) => runCronTick(deps, t), { concurrency: 2 });
      await until(async () => (await ticks.get(cronJobId(job.id, slot)))?.state === "completed", "the tick");
      await worker.close("finish");
      expect((await ticks.get(cronJobId(job.id, slot)))?.result).toMatchObject({ ran: true });
      expect(fake.requests.length - requestsBefore).toBe(1);
      expect(await state.runs(job.id)).toMatchObject([{ slot, output: "the report" }]);
      expect(await delivered.get(cronJobId(job.id, slot))).toBeDefined();

      // The same tick again (its worker died after recording the run): handed over, not run again.
      const again = await runCronTick(deps, {
        id: cronJobId(job.id, slot),
        data: { jobId: job.id, slot },
        attempt: 2,
        signal: new AbortController().signal,
      });
      expect(again.ran).toBe(false);
      expect(fake.requests.length - requestsBefore).toBe(1);
      expect(Object.values(await delivered.counts()).reduce((a, b) => a + b, 0)).toBe(1);
      // A removed job's tick runs nothing.
      await state.remove(job.id);
      expect(
        await runCronTick(deps, {
          id: "x",
          data: { jobId: job.id, slot: slot + 30 * MIN },
          attempt: 1,
          signal: new AbortController().signal,
        }),
      ).toEqual({ ran: false });
      expect(fake.requests.length - requestsBefore).toBe(1);
    },
  );

  it("the gateway sends a cron answer through its outbox once, also when it is handed over twice", async () => {
    const profile = profileOf(true);
    const iris = await IrisProcess.open({ profile, platform: "gateway", env: {} });
    cleanups.push(() => iris.close());
    const adapter = new MemoryAdapter();
    const gateway = new Gateway({
      iris,
      tables: await openGatewayTables(iris),
      adapters: [adapter],
      config: profile.config.gateway,
      cwd: dir.path,
      logger: getLogger({ component: "test" }),
      deliveries: (platform) => openProfileQueue(profile, deliveryQueue(platform)),
    });
    await gateway.start();
    cleanups.push(async () => {
      await gateway.stop();
    });
    const producer = await queueOf<Delivery, unknown>(profile, deliveryQueue("mem"));
    const id = cronJobId("0000beef", T0);
    await producer.add(id, { platform: "mem", chatId: "#team", text: "the report" });
    await until(() => adapter.textsTo("#team").length > 0, "the delivery");
    // A sent delivery's job goes from the queue; handed over again (a retried tick), the outbox
    // knows its key and sends nothing.
    await until(async () => (await producer.get(id)) === undefined, "the sent job to go");
    let finished = 0;
    const unsubscribe = await producer.onFinished((done) => {
      if (done === id) finished++;
    });
    cleanups.push(unsubscribe);
    await producer.add(id, { platform: "mem", chatId: "#team", text: "the report" });
    await until(() => finished > 0, "the second job");
    expect(adapter.textsTo("#team")).toEqual(["the report"]);
  });
});
