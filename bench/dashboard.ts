// Dashboard first screens on a big profile (SPEC E1 front ends; issue "fast on a big profile"):
// a generated store of --sessions sessions (default 100,000) with --nodes nodes each (default
// 50: 5,000,000 nodes) and one usage row per assistant node, then the time of the first screen of
// the overview, sessions, usage and one conversation page, over HTTP from a started dashboard;
// and one long session of --branch nodes (default 200,000) with a second branch, whose branch
// view is paged (its first page, and a page near its end).
// Run: npx tsx bench/dashboard.ts [--sessions 100000] [--nodes 50] [--branch 200000] [--runs 5]
// Figures go to stdout: the first (cold) request and the median of the rest, in ms.
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startDashboard } from "../packages/dashboard/src/index.js";
import { loadProfile } from "../packages/host/src/index.js";
import { openStore } from "../packages/store/src/index.js";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} needs a positive whole number`);
  return v;
}

const SESSIONS = arg("sessions", 100_000);
const NODES = arg("nodes", 50);
const RUNS = arg("runs", 5);
const BRANCH = arg("branch", 200_000);
const LONG = "long-session-bench";
const DAY = 86_400_000;
const MODELS = [
  "openai/gpt-4o",
  "anthropic/claude-sonnet-4-5",
  "openrouter/qwen3-coder",
  "openai/gpt-4o-mini",
];
const SOURCES = ["cli", "gateway:irc", "gateway:webchat", "api", "acp", "cron"];

async function fill(dbPath: string): Promise<number> {
  const store = openStore(dbPath);
  const db = store.db;
  const started = performance.now();
  const session = db.prepare(
    "INSERT INTO sessions (id, title, source, model, provider, started_at, api_calls, input_tokens, output_tokens, cost_usd) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const node = db.prepare(
    "INSERT INTO nodes (id, session_id, parent_id, run_start, kind, role, payload, body_text, created_at) VALUES (?, ?, ?, ?, 'message', ?, ?, ?, ?)",
  );
  const usage = db.prepare(
    "INSERT INTO usage (session_id, provider, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_usd, latency_ms, status, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?, 900, 'ok', ?)",
  );
  const now = Date.now();
  const span = 90 * DAY;
  let seq = 0;
  const batch = db.transaction((from: number, to: number) => {
    for (let s = from; s < to; s++) {
      const id = `s${String(s).padStart(8, "0")}-bench`;
      const [provider, model] = MODELS[s % MODELS.length]!.split("/") as [string, string];
      const t0 = now - span + Math.floor((s / SESSIONS) * span);
      const calls = Math.floor(NODES / 2);
      session.run(
        id,
        `bench session ${s}`,
        SOURCES[s % SOURCES.length],
        model,
        provider,
        t0,
        calls,
        calls * 9000,
        calls * 300,
        calls * 0.01,
      );
      let parent: string | null = null;
      let runStart: number | null = null;
      for (let n = 0; n < NODES; n++) {
        const nid = `n${String(++seq).padStart(10, "0")}`;
        const role = n % 2 === 0 ? "user" : "assistant";
        const text = role === "user" ? `question ${n} of session ${s}` : `answer ${n} of session ${s}`;
        const payload =
          role === "user"
            ? JSON.stringify({ role, content: text })
            : JSON.stringify({
                role,
                parts: [{ type: "text", text }],
                origin: { provider, apiMode: "chat_completions", model },
                usage: null,
                stopReason: "end",
              });
        node.run(nid, id, parent, runStart, role, payload, text, t0 + n * 1000);
        runStart ??= seq;
        parent = nid;
        if (role === "assistant") usage.run(id, provider, model, 9000, 300, 6000, 0.01, t0 + n * 1000);
      }
    }
  });
  for (let s = 0; s < SESSIONS; s += 1000) batch(s, Math.min(SESSIONS, s + 1000));
  // The long session: one chain of BRANCH nodes (one run), and a second branch off its 10th node.
  session.run(LONG, "long session", "cli", "gpt-4o", "openai", now - DAY, 0, 0, 0, 0);
  const longChain = db.transaction((from: number, to: number, runStart: number) => {
    for (let n = from; n < to; n++) {
      const nid = `L${String(n).padStart(10, "0")}`;
      const role = n % 2 === 0 ? "user" : "assistant";
      const text = `${role} line ${n} of the long session`;
      const payload =
        role === "user"
          ? JSON.stringify({ role, content: text })
          : JSON.stringify({
              role,
              parts: [{ type: "text", text }],
              origin: { provider: "openai", apiMode: "chat_completions", model: "gpt-4o" },
              usage: null,
              stopReason: "end",
            });
      ++seq;
      node.run(
        nid,
        LONG,
        n === 0 ? null : `L${String(n - 1).padStart(10, "0")}`,
        n === 0 ? null : runStart,
        role,
        payload,
        text,
        now - DAY + n,
      );
    }
  });
  const longStart = seq + 1;
  for (let n = 0; n < BRANCH; n += 10_000) longChain(n, Math.min(BRANCH, n + 10_000), longStart);
  longTip = `L${String(BRANCH - 1).padStart(10, "0")}`;
  longLateSeq = longStart + BRANCH - 300;
  ++seq;
  node.run(
    "L-edit",
    LONG,
    "L0000000009",
    null,
    "user",
    JSON.stringify({ role: "user", content: "edited" }),
    "edited",
    now,
  );
  await store.close();
  return performance.now() - started;
}

let longTip = "";
let longLateSeq = 0;

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "iris-bench-dashboard-"));
  try {
    writeFileSync(join(home, "config.yaml"), "dashboard: {monthly_budget_usd: 500}\n");
    const fillMs = await fill(join(home, "state.db"));
    const size = statSync(join(home, "state.db")).size;
    process.stdout.write(
      `dashboard bench: ${SESSIONS.toLocaleString("en-US")} sessions, ${(SESSIONS * NODES + BRANCH + 1).toLocaleString("en-US")} nodes, ` +
        `state.db ${(size / 2 ** 20).toFixed(0)} MiB, filled in ${(fillMs / 1000).toFixed(1)} s ` +
        `(${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(2)})\n`,
    );
    const profile = loadProfile({ env: { IRIS_HOME: home, HOME: home } });
    if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
    const running = await startDashboard({ profile, env: { IRIS_HOME: home }, port: 0, version: "bench" });
    try {
      const token = (await import("node:fs")).readFileSync(running.tokenFile, "utf8").trim();
      const login = await fetch(`${running.url}/login`, {
        method: "POST",
        body: new URLSearchParams({ token }),
        redirect: "manual",
      });
      const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
      const middle = `s${String(Math.floor(SESSIONS / 2)).padStart(8, "0")}-bench`;
      const first = await (await fetch(`${running.url}/sessions`, { headers: { cookie } })).text();
      const next = /id="next-page" href="([^"]+)"/.exec(first)?.[1] ?? "/sessions";
      for (const [name, path] of [
        ["overview", "/"],
        ["sessions", "/sessions"],
        ["sessions, page 2", next],
        ["usage (30 days, by model)", "/usage?days=30&split=model"],
        ["usage (90 days, by session)", "/usage?days=90&split=session"],
        ["conversation", `/sessions/${middle}`],
        [`branch view of ${BRANCH.toLocaleString("en-US")}, page 1`, `/sessions/${LONG}?branch=${longTip}`],
        ["branch view, near its end", `/sessions/${LONG}?branch=${longTip}&after=${longLateSeq}`],
      ] as const) {
        const times: number[] = [];
        let bytes = 0;
        for (let r = 0; r < RUNS; r++) {
          const t = performance.now();
          const res = await fetch(`${running.url}${path}`, { headers: { cookie } });
          const body = await res.text();
          times.push(performance.now() - t);
          bytes = body.length;
          if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
        }
        const rest = times.slice(1).sort((a, b) => a - b);
        const median = rest.length ? rest[Math.floor(rest.length / 2)]! : times[0]!;
        process.stdout.write(
          `  ${name.padEnd(30)} first ${times[0]!.toFixed(1).padStart(8)} ms   median ${median.toFixed(1).padStart(8)} ms   ${(bytes / 1024).toFixed(0)} KiB\n`,
        );
      }
    } finally {
      await running.close();
    }
  } finally {
    if (!process.env.KEEP) rmSync(home, { recursive: true, force: true });
    else process.stdout.write(`kept ${home}\n`);
  }
}

await main();
