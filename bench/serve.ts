// `iris serve`: the OpenAI-compatible API server in front of the fake LLM server
// answering instantly. Figures:
//   requests / s            stateless non-streamed chat completions through iris serve
//   added latency p50/p99   (latency through iris serve) − (latency of the same request sent to the
//                           fake server directly), at concurrency 1, 16 and 64: what the server,
//                           the session, the prompt and the agent loop add to every request
//   Responses at 16         non-streamed /v1/responses, each stored in state.db for
//                           previous_response_id (one write per request), against the same fake
//   CPU per request         this process's CPU time per request (server, fake and client are one
//                           process), through iris serve and to the fake alone: the fake's over
//                           iris's is the req/s ratio a quiet machine would see, when the load
//                           average says the req/s figures are another process's
//   RSS after N requests    RSS and JS heap before and after 10,000 requests (after a collection)
//   prompt cache hits       cached prompt tokens over all prompt tokens of the requests through iris
//                           serve at concurrency 16, as the fake bills them (it caches the longest
//                           byte prefix shared with a recent request, as OpenAI does)
// With --server-process the server is the built `iris serve` (packages/iris/bin/iris.js, or --bin
// PATH for another build) in its own process, as a user runs it (bench/serve-process.ts): the fake
// and the load generator then do not share its CPU, the RSS figures are left out, the fake alone's
// CPU per request over the server's own is printed (the req/s ratio of a quiet 2-core machine,
// where each process has a core), and so are the share of the time the server's event loop was
// busy and the machine's CPU busy share (is the server waiting, or is the machine full?);
// --cpu-prof-dir DIR writes the server's own CPU profile there (node --cpu-prof). Build first
// (`npm run build`): the bench says which build it measures. Without --server-process the server
// runs in this process from the TypeScript sources (through tsx: more CPU per request than the
// bundle, 0.85 against 0.79 ms run back to back at load ~11). --floor (with --server-process) adds
// the minimal Node proxy (bench/serve-floor.mjs: parse the client's JSON, send iris's own upstream
// bytes, read the SSE, answer JSON) in a process of its own to the same bursts: the ratio any
// Node server in iris serve's place reaches on this machine, printed beside iris serve's.
// --warmup N requests (default 5000) go through iris serve (and the floor) and to the fake before
// anything is measured (a fresh process spends its first thousand requests compiling); --bursts K
// measures each level in K alternating bursts of fake alone, minimal, iris serve (and the floor),
// so all of them come from the same minutes of a shared machine.
// Run: npx tsx bench/serve.ts [--requests 400 (3000 with --server-process)] [--concurrency N]
//        [--soak 10000] [--warmup 5000]
//        [--bursts K] [--server-process [--bin PATH] [--cpu-prof-dir DIR] [--floor]]
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { loadProfile } from "../packages/host/src/index.js";
import { startServer } from "../packages/serve/src/index.js";
import { startFakeLlm, tempDir } from "../packages/testkit/src/index.js";
import {
  DEFAULT_BIN,
  machineCpu,
  type ServeProcess,
  type ServerUsage,
  startFloorProcess,
  startServeProcess,
} from "./serve-process.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  const r = spawnSync(process.execPath, ["--expose-gc", ...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
  });
  process.exit(r.status ?? 1);
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} needs a positive whole number`);
  return v;
}
// With the server in its own process a request costs well under a millisecond: 400 split over six
// bursts made bursts of ~50 ms, whose figures were mostly the scheduler's.
const REQUESTS = arg("requests", process.argv.includes("--server-process") ? 3000 : 400);
/** Requests through iris serve and to the fake before anything is measured. */
const WARMUP = arg("warmup", 5000);
/** Each level's figures are measured in this many alternating bursts (fake alone, minimal, iris). */
const BURSTS = arg("bursts", 1);
const perBurst = Math.max(1, Math.round(REQUESTS / BURSTS));
const SOAK = arg("soak", 10_000);
/** One concurrency only (default: 1, 16 and 64). */
const ONLY = process.argv.includes("--concurrency") ? arg("concurrency", 16) : undefined;
const SERVER_PROCESS = process.argv.includes("--server-process");
/** Also measure the minimal proxy (bench/serve-floor.mjs) in the same bursts: what any Node server reaches here. */
const FLOOR = process.argv.includes("--floor");
if (FLOOR && !SERVER_PROCESS)
  throw new Error("--floor needs --server-process (both servers in processes of their own)");
function path(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const PROF_DIR = path("cpu-prof-dir");
/** The CLI that --server-process runs (another build, for A/B runs). */
const BIN = path("bin") ?? DEFAULT_BIN;

const fake = await startFakeLlm();
/** The first request iris serve sent upstream: replayed to the fake alone, so both figures are of one exchange. */
let upstream: string | undefined;
/** Requests the fake answered (iris's own and the direct ones): upstream calls per API request. */
let answered = 0;
// The fake keeps every request it got; the soak must not measure that list.
fake.setHandler((rec) => {
  answered++;
  upstream ??= rec.rawBody.toString("utf8");
  fake.requests.length = 0;
  // No input figure: the fake bills the prompt as it measured it, its cached prefix included.
  return { text: "ok", usage: { output: 1 } };
});
const dir = tempDir("iris-bench-serve");
writeFileSync(
  join(dir.path, "config.yaml"),
  [
    "model: {provider: openai, name: gpt-4.1-mini}",
    `providers: {openai: {base_url: "${fake.baseUrl}", api_mode: chat_completions}}`,
    "serve: {max_concurrent_per_key: 256, requests_per_minute: 1000000}",
    "",
  ].join("\n"),
);
writeFileSync(join(dir.path, ".env"), "OPENAI_API_KEY=bench\n", { mode: 0o600 });
const env: Record<string, string> = {
  IRIS_HOME: dir.path,
  PATH: process.env.PATH ?? "",
  IRIS_LOG_LEVEL: "silent",
};
const profile = loadProfile({ env, registerSecret: () => {} });
if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
const server: Served | Awaited<ReturnType<typeof startServer>> = SERVER_PROCESS
  ? await startServeProcess(BIN, env, PROF_DIR)
  : await startServer({ profile, port: 0, env });

interface Served {
  url: string;
  deps?: undefined;
  /** The server process's CPU and event-loop time so far. */
  usage?(): Promise<ServerUsage>;
  close(): Promise<void>;
}

const body = JSON.stringify({ model: "iris", messages: [{ role: "user", content: "hello" }] });
const direct = JSON.stringify({ model: "gpt-4.1-mini", messages: [{ role: "user", content: "hello" }] });

/** Prompt tokens and cached prompt tokens of the answers read so far (chat completions usage). */
const prompt = { tokens: 0, cached: 0 };

async function one(url: string, payload: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: payload,
  });
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  // The fake's streamed reply (the exchange iris makes) is read whole, as iris reads it.
  if (!res.headers.get("content-type")?.includes("json")) {
    await res.text();
    return performance.now() - t;
  }
  const answer = (await res.json()) as {
    usage?: { prompt_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } };
  };
  prompt.tokens += answer.usage?.prompt_tokens ?? 0;
  prompt.cached += answer.usage?.prompt_tokens_details?.cached_tokens ?? 0;
  return performance.now() - t;
}

async function serverUsage(): Promise<ServerUsage | undefined> {
  return "usage" in server && server.usage ? await server.usage() : undefined;
}

/** A target of the bench: a URL, the body sent there, and whose process usage a burst records. */
interface Target {
  url: string;
  payload: string;
  usage?: () => Promise<ServerUsage | undefined>;
}

/** What one burst of requests took: summed over bursts, then made into figures. */
interface Burst {
  n: number;
  seconds: number;
  latencies: number[];
  /** This process's CPU time (ms): server, fake and client, or fake and client with --server-process. */
  cpuMs: number;
  /** The server process's own CPU and event-loop time (ms) over the burst, with --server-process. */
  server: ServerUsage | undefined;
  /** The whole machine's busy and all CPU ticks over the burst (Linux). */
  machine: { busy: number; all: number } | undefined;
}

async function burst(
  { url, payload, usage = serverUsage }: Target,
  n: number,
  concurrency: number,
): Promise<Burst> {
  const latencies: number[] = [];
  let next = 0;
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const server0 = await usage();
  const machine0 = machineCpu();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        next++;
        latencies.push(await one(url, payload));
      }
    }),
  );
  const seconds = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const machine1 = machineCpu();
  const server1 = server0 && (await usage());
  return {
    n,
    seconds,
    latencies,
    cpuMs: (cpu.user + cpu.system) / 1000,
    server: server0 &&
      server1 && {
        cpuMs: server1.cpuMs - server0.cpuMs,
        loopBusyMs: server1.loopBusyMs - server0.loopBusyMs,
        loopIdleMs: server1.loopIdleMs - server0.loopIdleMs,
      },
    machine: machine0 &&
      machine1 && { busy: machine1.busy - machine0.busy, all: machine1.all - machine0.all },
  };
}

type Figures = ReturnType<typeof figures>;

function figures(bursts: readonly Burst[]) {
  const n = bursts.reduce((s, b) => s + b.n, 0);
  const seconds = bursts.reduce((s, b) => s + b.seconds, 0);
  const latencies = bursts.flatMap((b) => b.latencies).sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const sum = (f: (b: Burst) => number | undefined) =>
    bursts.every((b) => f(b) !== undefined) ? bursts.reduce((s, b) => s + (f(b) ?? 0), 0) : undefined;
  const serverMs = sum((b) => b.server?.cpuMs);
  const loopBusy = sum((b) => b.server?.loopBusyMs);
  const loopIdle = sum((b) => b.server?.loopIdleMs);
  const machineBusy = sum((b) => b.machine?.busy);
  const machineAll = sum((b) => b.machine?.all);
  return {
    rps: n / seconds,
    p50: at(0.5),
    p99: at(0.99),
    /** CPU time of this process per request: steadier than req/s on a shared machine. */
    cpuMs: bursts.reduce((s, b) => s + b.cpuMs, 0) / n,
    /** The server process's own CPU per request (with --server-process). */
    serverCpuMs: serverMs === undefined ? undefined : serverMs / n,
    /**
     * The share of the time the server's event loop was running code (or waiting for a CPU to run
     * it on) rather than waiting for input: near 1, the server is the bottleneck.
     */
    loopBusy: loopBusy === undefined || loopIdle === undefined ? undefined : loopBusy / (loopBusy + loopIdle),
    /** The share of the whole machine's CPU time that was busy (every process, other users' too). */
    machineBusy: machineBusy === undefined || !machineAll ? undefined : machineBusy / machineAll,
  };
}

async function run(url: string, payload: string, n: number, concurrency: number) {
  return figures([await burst({ url, payload }, n, concurrency)]);
}

/**
 * `runs` measured in BURSTS alternating bursts of `n / BURSTS` requests each, so every figure of
 * the comparison comes from the same minutes of a machine whose load changes from minute to minute.
 */
async function interleaved(runs: readonly Target[], n: number, concurrency: number) {
  const bursts = runs.map((): Burst[] => []);
  const per = n === REQUESTS ? perBurst : Math.max(1, Math.round(n / BURSTS));
  for (let i = 0; i < BURSTS; i++)
    for (const [k, r] of runs.entries()) bursts[k]?.push(await burst(r, per, concurrency));
  return bursts.map(figures);
}

process.stdout.write(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} (2 cores, often shared)\n`,
);
if ("build" in server) process.stdout.write(`iris serve in its own process: ${BIN}, ${server.build}\n`);
const irisUrl = `${server.url}/v1/chat/completions`;
const fakeUrl = `${fake.baseUrl}/chat/completions`;
await run(irisUrl, body, 50, 4); // its first upstream request is the one replayed
if (upstream === undefined) throw new Error("iris serve sent nothing upstream");
const same: string = upstream;
// A deployed server has run its code many times: the first thousand requests of a fresh process
// spend much of their time compiling it (V8's optimising compiler runs on threads of the process,
// and --server-process counts them).
await run(irisUrl, body, WARMUP, 16);
const exchange = JSON.parse(same) as { stream?: boolean; messages?: unknown[] };
process.stdout.write(
  `the exchange iris makes upstream: ${Buffer.byteLength(same)} bytes, ${exchange.messages?.length ?? 0} messages, ` +
    `${exchange.stream ? "streamed" : "not streamed"} reply; "fake alone" replays it; "minimal" is the old ` +
    `figure (the client's own ${Buffer.byteLength(direct)}-byte request, non-streamed)\n`,
);
await run(fakeUrl, same, WARMUP, 16);
await run(fakeUrl, direct, WARMUP, 16);
let floor: ServeProcess | undefined;
if (FLOOR) {
  const file = join(dir.path, "upstream.json");
  writeFileSync(file, same);
  floor = await startFloorProcess(file, fakeUrl, { PATH: env.PATH ?? "" });
  await run(`${floor.url}/v1/chat/completions`, body, WARMUP, 16);
}
const floorUrl = floor && `${floor.url}/v1/chat/completions`;
for (const c of ONLY ? [ONLY] : [1, 16, 64]) {
  Object.assign(prompt, { tokens: 0, cached: 0 });
  const before = answered;
  const runs: Target[] = [
    { url: fakeUrl, payload: same },
    { url: fakeUrl, payload: direct },
    { url: irisUrl, payload: body },
  ];
  if (floor && floorUrl) runs.push({ url: floorUrl, payload: body, usage: floor.usage });
  const [base, minimal, through, least] = (await interleaved(runs, REQUESTS, c)) as [
    Figures,
    Figures,
    Figures,
    Figures | undefined,
  ];
  // Upstream calls per request through iris serve: the fake answered the others too.
  const sent = BURSTS * perBurst;
  const calls = (answered - before - (least ? 3 : 2) * sent) / sent;
  const hits = prompt.tokens ? prompt.cached / prompt.tokens : 0;
  process.stdout.write(
    `concurrency ${String(c).padStart(2)}: ${through.rps.toFixed(0)} req/s through iris serve ` +
      `(fake alone ${base.rps.toFixed(0)}, minimal ${minimal.rps.toFixed(0)}); ratio ` +
      `${(through.rps / base.rps).toFixed(2)} (to minimal ${(through.rps / minimal.rps).toFixed(2)}); ` +
      `added latency p50 ${(through.p50 - base.p50).toFixed(1)} ms, p99 ${(through.p99 - base.p99).toFixed(1)} ms; ` +
      `${calls.toFixed(2)} upstream calls per request; ` +
      `prompt cache hits ${hits.toFixed(2)} (${prompt.cached} of ${prompt.tokens} prompt tokens); ` +
      `CPU per request ${through.cpuMs.toFixed(2)} ms (fake alone ${base.cpuMs.toFixed(2)} ms, ratio ` +
      `${(base.cpuMs / through.cpuMs).toFixed(2)})` +
      (through.serverCpuMs === undefined
        ? ""
        : `; the server process's own CPU per request ${through.serverCpuMs.toFixed(2)} ms ` +
          `(fake alone's CPU over it: ${(base.cpuMs / through.serverCpuMs).toFixed(2)})`) +
      (through.loopBusy === undefined
        ? ""
        : `; the server's event loop busy ${through.loopBusy.toFixed(2)} of the time`) +
      (through.machineBusy === undefined
        ? ""
        : `; the machine's CPU busy ${through.machineBusy.toFixed(2)} (fake alone ${base.machineBusy?.toFixed(2)})`) +
      "\n",
  );
  if (least)
    process.stdout.write(
      `concurrency ${String(c).padStart(2)}: the minimal Node proxy (bench/serve-floor.mjs) in the same bursts: ` +
        `${least.rps.toFixed(0)} req/s, ratio to fake alone ${(least.rps / base.rps).toFixed(2)}; ` +
        `iris serve over it ${(through.rps / least.rps).toFixed(2)}; its own CPU per request ` +
        `${least.serverCpuMs?.toFixed(2)} ms (iris serve ${through.serverCpuMs?.toFixed(2)} ms); this ` +
        `process's (client and fake) ${least.cpuMs.toFixed(2)} ms (through iris serve ${through.cpuMs.toFixed(2)} ms); ` +
        `its event loop busy ${least.loopBusy?.toFixed(2)}\n`,
    );
}

{
  const responsesUrl = `${server.url}/v1/responses`;
  const base = await run(fakeUrl, same, REQUESTS, 16);
  const through = await run(responsesUrl, JSON.stringify({ model: "iris", input: "hello" }), REQUESTS, 16);
  process.stdout.write(
    `responses, concurrency 16 (each stored in state.db): ${through.rps.toFixed(0)} req/s; added latency p50 ` +
      `${(through.p50 - base.p50).toFixed(1)} ms, p99 ${(through.p99 - base.p99).toFixed(1)} ms; ` +
      `${(await server.deps?.responses.size()) ?? "?"} stored (serve.responses_max)\n`,
  );
}

const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
if (SERVER_PROCESS) {
  // This process's RSS would not be the server's.
  await floor?.close();
  await server.close();
  await fake.close();
  dir.cleanup();
  process.exit(0);
}
gc();
const before = process.memoryUsage();
await run(irisUrl, body, SOAK, 16);
gc();
const after = process.memoryUsage();
process.stdout.write(
  `RSS: ${mb(before.rss)} MB before, ${mb(after.rss)} MB after ${SOAK} requests; JS heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)} MB (server and fake in one process)\n`,
);
await server.close();
await fake.close();
dir.cleanup();
