// The harness's own overhead (issue 5), measured the way other harnesses are: the built `iris -p`
// against the fake LLM server answering instantly. Figures are medians over repeated runs:
//   start → first request   process spawn → the first model request arriving at the server
//   two tool round trips    end of reply 1 (a read_file call) → arrival of request 3, i.e. answer
//                           parsed → tool run → request 2 sent → reply 2 → tool run → request 3
//   two terminal round trips  the same with two terminal calls: the process's first command checks
//                           (a substitution, then a loop with [[ ]]) and two shells running built-ins
//   time per round          (last arrival − first arrival) / (rounds − 1) in a tool session
//   peak RSS                the iris process's maximum resident set (GNU time %M, else VmHWM)
//   first request bytes     system prompt + tool schemas + the user message, default CLI toolset
//   shared prefix           common prefix of consecutive requests / bytes of the earlier one
// Run: npx tsx bench/harness.ts [--runs 15] [--rounds 20] [--mode chat_completions]
//        [--only start|trips|session|requests] [--bin path/to/iris.js]
// The built CLI is measured: run `npm run build` first (the bundle and its code cache). Figures go to stdout.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { type FakeLlm, type ScriptedReply, startFakeLlm } from "../packages/testkit/src/index.js";

const MODES = ["chat_completions", "responses", "anthropic_messages"] as const;
type Mode = (typeof MODES)[number];

const DEFAULT_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "packages", "iris", "bin", "iris.js");
const GNU_TIME = "/usr/bin/time";
const PARTS = ["start", "trips", "session", "requests"] as const;
type Part = (typeof PARTS)[number];

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? process.argv[i + 1] : undefined;
  if (i >= 0 && v === undefined) throw new Error(`--${name} needs a value`);
  return v ?? fallback;
}

function positive(name: string, fallback: number): number {
  const v = Number(arg(name, String(fallback)));
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} needs a positive whole number`);
  return v;
}

const RUNS = positive("runs", 15);
const ROUNDS = Math.max(3, positive("rounds", 20));
const MODE = arg("mode", "chat_completions") as Mode;
if (!MODES.includes(MODE)) throw new Error(`--mode must be one of ${MODES.join(", ")}`);
const ONLY = arg("only", "");
if (ONLY && !PARTS.includes(ONLY as Part)) throw new Error(`--only must be one of ${PARTS.join(", ")}`);
const wanted = (part: Part) => ONLY === "" || ONLY === part;
/** Another build of iris (e.g. a copy of an earlier dist) to compare against. */
const IRIS_BIN = arg("bin", DEFAULT_BIN);

interface Arrival {
  at: number;
  /** When the reply had been written to the socket (the next turn of the server's event loop). */
  replyEnd: number;
  bytes: Buffer;
}

interface RunResult {
  spawnedAt: number;
  exitedAt: number;
  arrivals: Arrival[];
  /** Peak RSS in KiB, or undefined when it could not be read. */
  peakRssKb: number | undefined;
  rssSource: string;
}

/** One `iris -p` process against a fresh fake server scripted with `steps`. */
async function runOnce(
  steps: ScriptedReply[],
  opts: { home: string; cwd: string; mode: Mode; measureRss: boolean },
): Promise<RunResult> {
  const fake: FakeLlm = await startFakeLlm();
  const queue = [...steps];
  const arrivals: Arrival[] = [];
  let child: ReturnType<typeof spawn> | undefined;
  let hwmKb: number | undefined;
  // GNU time reports the true peak; without it, VmHWM is read at each request (after the timestamp).
  const useTime = opts.measureRss && existsSync(GNU_TIME);
  const pollHwm = opts.measureRss && !useTime;
  fake.setHandler((req) => {
    const arrival: Arrival = { at: performance.now(), replyEnd: Number.NaN, bytes: req.rawBody };
    arrivals.push(arrival);
    // The reply is written synchronously after the handler returns; the next loop turn is after it.
    setImmediate(() => {
      arrival.replyEnd = performance.now();
    });
    if (pollHwm && child?.pid !== undefined) hwmKb = Math.max(hwmKb ?? 0, readHwmKb(child.pid) ?? 0);
    return queue.shift() ?? { text: "bench: script exhausted" };
  });
  const route = ["--provider", "custom", "--base-url", fake.baseUrl, "--model", "fake-model"];
  const irisArgs = [IRIS_BIN, "-p", "bench task", ...route, "--api-mode", opts.mode];
  const [cmd, argv] = useTime
    ? [GNU_TIME, ["-f", "IRIS_BENCH_MAXRSS_KB=%M", process.execPath, ...irisArgs]]
    : [process.execPath, irisArgs];
  let stderr = "";
  const spawnedAt = performance.now();
  child = spawn(cmd, argv, {
    cwd: opts.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: opts.home, IRIS_HOME: opts.home },
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child?.once("error", reject);
    child?.once("close", (c) => resolve(c));
  });
  const exitedAt = performance.now();
  await fake.close();
  if (code !== 0) throw new Error(`iris exited ${code}:\n${stderr}`);
  if (fake.violations.length > 0)
    throw new Error(`fake server rejected a request: ${fake.violations[0]?.rejected}`);
  if (arrivals.length !== steps.length)
    throw new Error(`expected ${steps.length} model requests, got ${arrivals.length}`);
  const other = fake.requests.filter((r) => r.apiMode === "models" || r.apiMode === "unknown");
  if (other.length > 0)
    throw new Error(`iris made ${other.length} non-model request(s), e.g. ${other[0]?.path}`);
  const timed = /IRIS_BENCH_MAXRSS_KB=(\d+)/.exec(stderr)?.[1];
  const peakRssKb = timed !== undefined ? Number(timed) : hwmKb;
  const rssSource = timed !== undefined ? "GNU time %M" : "VmHWM at request arrivals";
  return { spawnedAt, exitedAt, arrivals, peakRssKb, rssSource };
}

function readHwmKb(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m?.[1] === undefined ? undefined : Number(m[1]);
  } catch {
    return undefined;
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? Number.NaN) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

function commonPrefix(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

const readCall = (file: string): ScriptedReply => ({
  toolCalls: [{ name: "read_file", arguments: { path: file } }],
});
const fileName = (i: number) => `f${String(i).padStart(2, "0")}.txt`;

/** `rounds` model requests: rounds − 1 read_file calls on distinct small files, then a text answer. */
function toolSession(rounds: number): ScriptedReply[] {
  const steps: ScriptedReply[] = [];
  for (let i = 1; i < rounds; i++) steps.push(readCall(fileName(i)));
  steps.push({ text: "done" });
  return steps;
}

interface Row {
  name: string;
  value: string;
  target: string;
  ok: boolean | undefined;
  note?: string;
}

const rows: Row[] = [];
const ms = (x: number) => `${x.toFixed(1)} ms`;
const spread = (xs: number[], f: (x: number) => string) =>
  `min ${f(Math.min(...xs))}, max ${f(Math.max(...xs))}, n=${xs.length}`;

type Opts = { home: string; cwd: string; mode: Mode };

async function benchStart(opts: Opts): Promise<void> {
  const starts: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const run = await runOnce([{ text: "ok" }], { ...opts, measureRss: false });
    starts.push((run.arrivals[0]?.at ?? Number.NaN) - run.spawnedAt);
  }
  const med = median(starts);
  rows.push({
    name: "start → first request",
    value: ms(med),
    target: "≤ 300 ms",
    ok: med <= 300,
    note: spread(starts, ms),
  });
}

const terminalCall = (command: string): ScriptedReply => ({
  toolCalls: [{ name: "terminal", arguments: { command } }],
});

async function benchTrips(opts: Opts): Promise<void> {
  const scripts = {
    read: [readCall(fileName(1)), readCall(fileName(2)), { text: "two read" }],
    // The process's first command checks (the bash parser's first use) and two shells; shell
    // built-ins only, so no other program's start is counted.
    terminal: [
      terminalCall(`[[ -f ${fileName(1)} ]] && echo "found $(pwd)"`),
      terminalCall('for f in *.txt; do [[ -f "$f" ]] && echo "$f"; done'),
      { text: "two run" },
    ],
  };
  const trips = { read: [] as number[], terminal: [] as number[] };
  for (let r = 0; r < RUNS; r++) {
    for (const kind of ["read", "terminal"] as const) {
      const [first, , third] = (await runOnce(scripts[kind], { ...opts, measureRss: false })).arrivals;
      trips[kind].push((third?.at ?? Number.NaN) - (first?.replyEnd ?? Number.NaN));
    }
  }
  for (const [kind, name, limit] of [
    ["read", "two tool round trips", 40],
    ["terminal", "two terminal round trips (first command checks)", 50],
  ] as const) {
    const med = median(trips[kind]);
    rows.push({
      name,
      value: ms(med),
      target: `≤ ${limit} ms`,
      ok: med <= limit,
      note: spread(trips[kind], ms),
    });
  }
}

/** The rounds-long tool session: time per round and peak RSS. Returns the last run for `requests`. */
async function benchSession(opts: Opts): Promise<RunResult | undefined> {
  const perRound: number[] = [];
  const rss: number[] = [];
  let last: RunResult | undefined;
  for (let r = 0; r < RUNS; r++) {
    last = await runOnce(toolSession(ROUNDS), { ...opts, measureRss: true });
    const first = last.arrivals[0]?.at ?? Number.NaN;
    const end = last.arrivals[last.arrivals.length - 1]?.at ?? Number.NaN;
    perRound.push((end - first) / (last.arrivals.length - 1));
    if (last.peakRssKb !== undefined) rss.push(last.peakRssKb / 1024);
  }
  rows.push({
    name: `time per round (${ROUNDS}-round tool session)`,
    value: ms(median(perRound)),
    target: "none (context: two round trips ≤ 40 ms)",
    ok: undefined,
    note: spread(perRound, ms),
  });
  const med = rss.length ? median(rss) : Number.NaN;
  const mb = (x: number) => `${x.toFixed(1)} MiB`;
  rows.push({
    name: `peak RSS (${ROUNDS}-round session)`,
    value: mb(med),
    target: "≤ 100 MB",
    ok: rss.length ? med * 1.048576 <= 100 : undefined,
    note: `${last?.rssSource}; ${rss.length ? spread(rss, mb) : "not readable"}`,
  });
  return last;
}

const CACHE_MARK = /,"cache_control":\{"type":"ephemeral"\}/g;
const pct = (x: number) => `${(x * 100).toFixed(2)} %`;

/** First-request bytes and prefix stability in every api mode (deterministic, one session each). */
async function benchRequests(opts: Opts, reuse: RunResult | undefined): Promise<void> {
  for (const mode of MODES) {
    const run =
      mode === MODE && reuse
        ? reuse
        : await runOnce(toolSession(ROUNDS), { ...opts, mode, measureRss: false });
    const bytes = run.arrivals[0]?.bytes.length ?? 0;
    rows.push({
      name: `first request bytes [${mode}]`,
      value: `${bytes} B (${(bytes / 1024).toFixed(1)} KiB)`,
      target: "≤ 16 KB",
      ok: bytes <= 16 * 1024,
    });
    const ratios: number[] = [];
    const unmarked: number[] = [];
    for (let i = 1; i < run.arrivals.length; i++) {
      const prev = run.arrivals[i - 1]?.bytes ?? Buffer.alloc(0);
      const next = run.arrivals[i]?.bytes ?? Buffer.alloc(0);
      ratios.push(commonPrefix(prev, next) / prev.length);
      // Moving prompt-cache breakpoints (Anthropic cache_control) change bytes, not cached content.
      const [p, n] = [prev, next].map((b) => Buffer.from(b.toString("utf8").replace(CACHE_MARK, "")));
      if (p && n) unmarked.push(commonPrefix(p, n) / p.length);
    }
    const low = Math.min(...ratios);
    const marks = run.arrivals.some((a) => a.bytes.includes('"cache_control"'));
    rows.push({
      name: `shared prefix, consecutive requests [${mode}]`,
      value: `lowest ${pct(low)}`,
      target: "≥ 99 %",
      ok: low >= 0.99,
      note:
        `median ${pct(median(ratios))} over ${ratios.length} pairs; last request ${run.arrivals.at(-1)?.bytes.length} B` +
        (marks ? `; without cache_control markers: lowest ${pct(Math.min(...unmarked))}` : ""),
    });
  }
}

function printRows(): void {
  const width = Math.max(...rows.map((r) => r.name.length));
  const valueWidth = Math.max(...rows.map((r) => r.value.length));
  for (const r of rows) {
    const mark = r.ok === undefined ? "  " : r.ok ? "ok" : "!!";
    process.stdout.write(
      `${mark} ${r.name.padEnd(width)}  ${r.value.padEnd(valueWidth)}  target ${r.target}${r.note ? `  (${r.note})` : ""}\n`,
    );
  }
}

async function main(): Promise<void> {
  // dist/cli/main.js: the layout before the CLI moved into packages/cli (to compare with such a build).
  const built = ["main.js", join("cli", "main.js")].some((f) =>
    existsSync(join(dirname(IRIS_BIN), "..", "dist", f)),
  );
  if (!built) throw new Error(`${IRIS_BIN}: iris is not built: run \`npm run build\` first`);
  const root = mkdtempSync(join(tmpdir(), "iris-bench-"));
  const home = join(root, "home");
  const cwd = join(root, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  for (let i = 1; i <= ROUNDS; i++)
    writeFileSync(join(cwd, fileName(i)), `line one of file ${i}\nline two\n`);
  const opts: Opts = { home, cwd, mode: MODE };
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  process.stdout.write(
    `iris harness bench · ${cpus().length} cores · load ${load} · node ${process.version} · mode ${MODE} · ${RUNS} runs each\n`,
  );
  try {
    // Warm-up: creates the store and fills the file cache; not counted.
    await runOnce([{ text: "warm" }], { ...opts, measureRss: false });
    if (wanted("start")) await benchStart(opts);
    if (wanted("trips")) await benchTrips(opts);
    const session = wanted("session") ? await benchSession(opts) : undefined;
    if (wanted("requests")) await benchRequests(opts, session);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  printRows();
}

await main();
