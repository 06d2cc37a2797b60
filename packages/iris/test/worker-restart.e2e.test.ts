// `iris worker` (the real bin) outlives a restart of its queue's server: while
// PostgreSQL or Redis is down it says once, on stderr and without the URL's password, that the
// server does not answer and that it retries; when the server is back it says so and takes batch
// items again — a batch enqueued afterwards is run by it, every item once.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  skipWithoutPostgres,
  skipWithoutRedis,
  startFakeLlm,
  startPostgres,
  startRedis,
} from "@iris/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { tempHome } from "./helpers.js";
import { type Cleanups, runCleanups, startIris, until } from "./processes.js";

const cleanups: Cleanups = [];
afterEach(() => runCleanups(cleanups));

interface Server {
  url: string;
  stop(): Promise<void> | void;
  start(): Promise<void>;
}

async function survivesRestart(backend: "postgres" | "redis", server: Server): Promise<void> {
  const root = tempHome();
  cleanups.push(root.cleanup);
  const fake = await startFakeLlm();
  cleanups.push(() => fake.close());
  fake.setHandler((req) => {
    const prompt = JSON.stringify(req.body);
    return { text: `answered ${/item-\d/.exec(prompt)?.[0] ?? "?"}` };
  });
  // The test server trusts loopback logins: any password goes, and none may show.
  const url = backend === "postgres" ? server.url.replace("iris@", "iris:hunter2@") : server.url;
  const profile = (name: string): Record<string, string> => {
    const home = join(root.home, name);
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, "config.yaml"),
      `providers:\n  fake: { base_url: "${fake.baseUrl}", api_mode: chat_completions }\n` +
        `queue:\n  backend: ${backend}\n  name: restart-${process.pid}\n` +
        `batch:\n  worker_dir: "${join(root.home, "logs")}"\n`,
    );
    return { IRIS_HOME: home, [backend === "postgres" ? "IRIS_DATABASE_URL" : "IRIS_REDIS_URL"]: url };
  };
  const worker = startIris(["worker"], profile("worker"), cleanups);
  await until(() => /running batch items/.test(worker.stderr()), "the worker to start");

  await server.stop();
  await until(() => /does not answer .*; retrying/.test(worker.stderr()), "the worker to see the outage");
  await server.start();
  await until(() => /answers again; taking items/.test(worker.stderr()), "the worker to see the server back");
  expect(worker.child.exitCode).toBeNull();

  const input = join(root.home, "in.jsonl");
  const keys = ["item-1", "item-2", "item-3"];
  writeFileSync(input, keys.map((k) => `${JSON.stringify({ id: k, prompt: `question ${k}` })}\n`).join(""));
  const out = join(root.home, "out.jsonl");
  const producer = startIris(
    ["batch", input, "--out", out, "--queue", "--provider", "fake", "--model", "fake-model"],
    profile("producer"),
    cleanups,
  );
  const done = await producer.exited;
  expect(done.code, `${producer.stderr()}\nworker:\n${worker.stderr()}`).toBe(0);
  const rows = readFileSync(out, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { key: string; status: string });
  expect(rows.map((r) => `${r.key} ${r.status}`).sort()).toEqual(keys.map((k) => `${k} completed`));
  expect(worker.stderr().match(/does not answer/g)).toHaveLength(1);
  expect(worker.stderr()).not.toContain("hunter2");
  worker.child.kill("SIGTERM");
  expect((await worker.exited).code).toBe(0);
}

describe.skipIf(skipWithoutPostgres())("iris worker and a PostgreSQL restart", () => {
  it("reports the outage once, reconnects with backoff and takes items again", {
    timeout: 120_000,
  }, async () => {
    const pg = await startPostgres();
    cleanups.push(pg.close);
    await survivesRestart("postgres", { url: pg.url(), stop: () => pg.stop("fast"), start: pg.start });
  });
});

describe.skipIf(skipWithoutRedis())("iris worker and a Redis restart", () => {
  it("reports the outage once, reconnects with backoff and takes items again", {
    timeout: 120_000,
  }, async () => {
    const redis = await startRedis();
    cleanups.push(redis.close);
    await survivesRestart("redis", { url: redis.url, stop: redis.stop, start: redis.start });
  });
});
