// One process, many sessions (issue 14): the host's IrisProcess serving sessions against the fake
// LLM server answering instantly, in one Node process. Figures:
//   sessions started / s     openSession + startSession (frozen prompt built, row stored), then close
//   overhead per round       reply written by the server → the session's next request arriving:
//                            answer parsed, read_file run, history stored and read back, request
//                            built and sent. p50 and p99 over every round of every session, with
//                            1, 50 and 200 sessions running at once (queueing on one event loop included)
//   RSS per idle session     RSS growth / sessions, for 5,000 started sessions holding no turn
//   200 sessions closed      RSS and live handles before 200 concurrent sessions and after they closed
//   RSS after short sessions RSS sampled every 1,000 of 10,000 sessions (open, one turn, close);
//                            the slope of a least-squares line through the samples (flat: ≈ 0)
// Run: npx tsx bench/sessions.ts [--rounds 10] [--idle 5000] [--short 10000]
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { IrisProcess, loadProfile, type Session } from "../packages/host/src/index.js";
import { type RecordedRequest, type Step, startFakeLlm, tempDir } from "../packages/testkit/src/index.js";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  // RSS figures need a collection before each sample: run again with --expose-gc.
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
const ROUNDS = arg("rounds", 10);
const IDLE = arg("idle", 5000);
const SHORT = arg("short", 10_000);

const fake = await startFakeLlm();
const dir = tempDir("iris-bench-sessions");
const work = join(dir.path, "work");
mkdirSync(work);
for (let i = 0; i < ROUNDS; i++) writeFileSync(join(work, `f${i}.txt`), `file ${i}\n`.repeat(20));
const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
const iris = await IrisProcess.open({ profile, platform: "cli" });
const route = {
  provider: "custom",
  model: "fake-model",
  baseUrl: fake.baseUrl,
  apiMode: "chat_completions" as const,
};

/** Per session marker: when the previous reply for it was written, and the gaps seen. */
const lastReplyEnd = new Map<string, number>();
const gaps: number[] = [];
fake.setHandler((req: RecordedRequest): Step => {
  const now = performance.now();
  const raw = req.rawBody.toString("utf8");
  const marker = /\[B(\d+)\]/.exec(raw)?.[1] ?? "?";
  const prev = lastReplyEnd.get(marker);
  if (prev !== undefined) gaps.push(now - prev);
  const rounds = (raw.match(/"role":"tool"/g) ?? []).length;
  // The reply is written on this turn of the loop; its end is "now" plus the render.
  setImmediate(() => lastReplyEnd.set(marker, performance.now()));
  if (raw.includes("[short]")) return { text: "ok" };
  if (rounds < ROUNDS) return { toolCalls: [{ name: "read_file", arguments: { path: `f${rounds}.txt` } }] };
  lastReplyEnd.delete(marker);
  return { text: "done" };
});

const open = async (): Promise<Session> => {
  const s = iris.openSession({ source: "bench", cwd: work, route });
  await s.startSession();
  return s;
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const rss = () => {
  gc?.();
  gc?.();
  return process.memoryUsage().rss;
};

/** Live handles, without the HTTP keep-alive pool's sockets (one per route, reused). */
const handles = () => process.getActiveResourcesInfo().filter((k) => k !== "TCPSocketWrap").length;

process.stdout.write(`sessions bench · load ${loadavg()[0]?.toFixed(2)} · rounds ${ROUNDS}\n`);

// Warm-up: the first session pays for module loading and the first prompt build.
{
  const warm = await open();
  await warm.send("[B-1] warm up");
  await warm.close();
}

// RSS per idle session.
{
  const before = rss();
  const heapBefore = process.memoryUsage().heapUsed;
  const idle: Session[] = [];
  for (let i = 0; i < IDLE; i++) idle.push(await open());
  const after = rss();
  const heapAfter = process.memoryUsage().heapUsed;
  process.stdout.write(
    `RSS per idle session          ${((after - before) / IDLE / 1024).toFixed(1)} KB ` +
      `(JS heap ${((heapAfter - heapBefore) / IDLE / 1024).toFixed(1)} KB; ${IDLE} sessions)\n`,
  );
  await Promise.all(idle.map((s) => s.close()));
}

// Sessions started per second.
{
  const n = 500;
  const t0 = performance.now();
  const started: Session[] = [];
  for (let i = 0; i < n; i++) started.push(await open());
  const secs = (performance.now() - t0) / 1000;
  await Promise.all(started.map((s) => s.close()));
  process.stdout.write(`sessions started / s          ${(n / secs).toFixed(0)} (${n} sessions)\n`);
}

// Harness overhead per round at 1, 50 and 200 concurrent sessions.
for (const concurrent of [1, 50, 200]) {
  gaps.length = 0;
  const rssBefore = rss();
  const heapBefore = process.memoryUsage().heapUsed;
  const handlesBefore = handles();
  const sessions = await Promise.all(Array.from({ length: concurrent }, open));
  const t0 = performance.now();
  const results = await Promise.all(sessions.map((s, i) => s.send(`[B${i}] read the files`)));
  const wall = performance.now() - t0;
  for (const r of results)
    if (r.reason !== "natural") throw new Error(`a session ended ${r.reason}: ${r.text}`);
  await Promise.all(sessions.map((s) => s.close()));
  process.stdout.write(
    `overhead per round, ${String(concurrent).padStart(3)} sessions  p50 ${pct(gaps, 50).toFixed(2)} ms  ` +
      `p99 ${pct(gaps, 99).toFixed(2)} ms  (${gaps.length} rounds, ${((results.length * (ROUNDS + 1)) / (wall / 1000)).toFixed(0)} requests/s)\n`,
  );
  fake.requests.length = 0;
  // The check: after every session closed, handles and RSS are back where they started.
  if (concurrent === 200) {
    const rssAfter = rss();
    // The allocator hands freed pages back lazily: RSS again after a few quiet seconds.
    await new Promise((r) => setTimeout(r, 5000));
    process.stdout.write(
      `200 sessions closed           RSS ${mb(rssBefore)} before → ${mb(rssAfter)} at close → ` +
        `${mb(rss())} 5 s later; JS heap ${mb(heapBefore)} → ${mb(process.memoryUsage().heapUsed)}; ` +
        `handles ${handlesBefore} → ${handles()} (HTTP keep-alive sockets not counted)\n`,
    );
  }
}

// RSS over many short sessions: open, one turn, close.
{
  const samples: [number, number][] = [];
  const every = Math.max(1, Math.floor(SHORT / 10));
  for (let i = 1; i <= SHORT; i++) {
    const s = await open();
    await s.send(`[B${i}] [short] hello`);
    await s.close();
    if (i % 200 === 0) fake.requests.length = 0;
    if (i % every === 0) samples.push([i, rss()]);
  }
  const n = samples.length;
  const mx = samples.reduce((a, [x]) => a + x, 0) / n;
  const my = samples.reduce((a, [, y]) => a + y, 0) / n;
  const slope =
    samples.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) /
    samples.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  process.stdout.write(
    `RSS after ${SHORT} short sessions  ${mb(samples.at(-1)?.[1] ?? 0)}; slope ${(slope / 1024).toFixed(2)} KB ` +
      `per session (samples: ${samples.map(([, y]) => (y / 1024 / 1024).toFixed(0)).join(" ")} MB)\n`,
  );
}

await iris.close();
await fake.close();
dir.cleanup();
