// `iris batch --queue` with 1, 2 and 3 `iris worker` processes (issue 30): how batch throughput
// scales with workers on one queue. The fake LLM server answers each request after
// --latency-ms (a model's think time; at 0 the run is CPU-bound on this shared machine and more
// workers cannot help), each worker runs --concurrency items at once, and every run has a fresh
// queue. Figures:
//   items/s        items ÷ wall time of the `iris batch --queue` process (workers already running)
//   steady         items ÷ time from the first model request to the last (no start-up, no tail)
//   scaling        steady items/s with N workers ÷ with 1
//   in-process     the same items through `iris batch --concurrency C` (no queue), for the
//                  queue's own cost beside one worker
// Run: npx tsx bench/batch-queue.ts [--items 300] [--latency-ms 400] [--concurrency 4]
//      [--backend postgres|redis]   (after `npm run build`; needs postgresql-15 or redis-server)
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeLlm, startPostgres, startRedis, tempDir } from "../packages/testkit/src/index.js";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} needs a whole number ≥ 0`);
  return v;
}
const ITEMS = arg("items", 300);
const LATENCY_MS = arg("latency-ms", 400);
const CONCURRENCY = arg("concurrency", 4);
const backendArg = process.argv[process.argv.indexOf("--backend") + 1];
const BACKEND = process.argv.includes("--backend") ? backendArg : "postgres";
if (BACKEND !== "postgres" && BACKEND !== "redis") throw new Error("--backend is postgres or redis");
const bin = fileURLToPath(new URL("../packages/iris/bin/iris.js", import.meta.url));

const server =
  BACKEND === "postgres"
    ? await startPostgres().then((pg) => ({ url: pg.url(), close: pg.close }))
    : await startRedis();
const fake = await startFakeLlm();
/** When each model request of the current run arrived. */
let arrivals: number[] = [];
fake.setHandler(async () => {
  arrivals.push(performance.now());
  if (LATENCY_MS > 0) await new Promise((r) => setTimeout(r, LATENCY_MS));
  return { text: "ok", usage: { input: 20, output: 2 } };
});
const dir = tempDir("iris-bench-batch-queue");
const input = join(dir.path, "in.jsonl");
writeFileSync(
  input,
  Array.from({ length: ITEMS }, (_, i) => JSON.stringify({ id: `i${i}`, prompt: `say ok ${i}` })).join("\n") +
    "\n",
);
const urlEnv = BACKEND === "postgres" ? "IRIS_DATABASE_URL" : "IRIS_REDIS_URL";

/** A profile whose queue is `name` (one per run, so no run sees another's jobs). */
function profile(name: string): Record<string, string> {
  const home = join(dir.path, name);
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, "config.yaml"),
    `providers:\n  fake: { base_url: "${fake.baseUrl}", api_mode: chat_completions }\n` +
      `queue:\n  backend: ${BACKEND}\n  name: ${name}\n`,
  );
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    IRIS_HOME: home,
    [urlEnv]: server.url,
  };
}

function spawnIris(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  return { child, stderr: () => stderr };
}

const exited = (c: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    c.exitCode !== null ? resolve(c.exitCode) : c.on("close", resolve),
  );

interface Timing {
  wallMs: number;
  /** First model request to the last one's answer. */
  steadyMs: number;
}

/** Wall time of one `iris batch` run (its process, start to exit), and its steady part. */
async function timeBatch(args: string[], env: Record<string, string>): Promise<Timing> {
  arrivals = [];
  const started = performance.now();
  const run = spawnIris(["batch", input, ...args, "--provider", "fake", "--model", "fake-model"], env);
  const code = await exited(run.child);
  if (code !== 0) throw new Error(`iris batch exited ${code}: ${run.stderr().slice(-1500)}`);
  const wallMs = performance.now() - started;
  const first = arrivals[0] ?? 0;
  return { wallMs, steadyMs: (arrivals.at(-1) ?? first) + LATENCY_MS - first };
}

async function withWorkers(n: number): Promise<Timing> {
  const env = profile(`bench-w${n}-${process.pid}`);
  const workers = Array.from({ length: n }, () =>
    spawnIris(["worker", "--concurrency", String(CONCURRENCY)], env),
  );
  const deadline = Date.now() + 60_000;
  while (!workers.every((w) => /running batch items/.test(w.stderr()))) {
    if (Date.now() > deadline)
      throw new Error(`workers did not start: ${workers.map((w) => w.stderr()).join("\n")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  try {
    return await timeBatch(["--out", join(dir.path, `out-w${n}.jsonl`), "--queue"], env);
  } finally {
    for (const w of workers) w.child.kill("SIGTERM");
    await Promise.all(workers.map((w) => exited(w.child)));
  }
}

const rate = (ms: number) => (ITEMS * 1000) / ms;
const line = (t: Timing) =>
  `${(t.wallMs / 1000).toFixed(1)} s  ${rate(t.wallMs).toFixed(1)} items/s  steady ${rate(t.steadyMs).toFixed(1)} items/s`;
process.stdout.write(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} (2-core machine shared); ${BACKEND} queue, ${ITEMS} items, model latency ${LATENCY_MS} ms, ` +
    `${CONCURRENCY} items at once per worker\n`,
);
const inProcess = await timeBatch(
  ["--out", join(dir.path, "out-local.jsonl"), "--concurrency", String(CONCURRENCY)],
  profile(`bench-local-${process.pid}`),
);
process.stdout.write(`in-process  concurrency ${CONCURRENCY}  ${line(inProcess)}\n`);
const rates: number[] = [];
for (const n of [1, 2, 3]) {
  const t = await withWorkers(n);
  rates.push(rate(t.steadyMs));
  process.stdout.write(
    `queue  ${n} worker(s)  ${line(t)}  scaling ×${(rate(t.steadyMs) / (rates[0] as number)).toFixed(2)} (ideal ×${n})\n`,
  );
}
await fake.close();
await server.close();
dir.cleanup();
