// Store speed (issue 3): append rate in rounds, path assembly, FTS latency at 1M nodes, size on disk.
// Run: npx tsx bench/store.ts [--nodes 1000000] [--append 100000] [--path 10000] [--queries 300]
// Targets: append >= 20,000 nodes/s (rounds of 1 assistant + 3 tool results), a 10,000-node path
// in < 50 ms, FTS median < 20 ms over 1,000,000 nodes. Figures go to stdout, wall-clock and CPU
// time: on a machine shared with other work, CPU time per node is the comparable figure.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantMessage, Message, ToolResultMessage } from "../packages/llm/src/index.js";
import type { NodeInput } from "../packages/store/src/index.js";
// The synchronous SQLite engine itself: these figures are the engine's, without the async seam.
import { openSqliteEngine as openStore, type SqliteEngine as Store } from "../packages/store/src/store.js";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} needs a positive number`);
  return Math.floor(v);
}

const FTS_NODES = arg("nodes", 1_000_000);
const APPEND_NODES = arg("append", 100_000);
const PATH_NODES = arg("path", 10_000);
const QUERIES = arg("queries", 300);

// A seeded generator so runs are comparable.
let seed = 0x2545f491;
function rand(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x100000000;
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
/** Zipf-like: low indexes much more often, like words in real text. */
const zipf = <T>(xs: readonly T[]): T => xs[Math.floor(xs.length * rand() ** 3)] as T;

const EN_SYL = [
  "ka",
  "lo",
  "mi",
  "ter",
  "sun",
  "dra",
  "vel",
  "po",
  "rin",
  "gal",
  "mo",
  "tes",
  "ner",
  "qua",
  "zi",
];
const KO_SYL = [..."가나다라마바사아자차카타파하국어검색테스트문장입니다데이터베이스서버파일설정확인오류"];
const JA_SYL = [..."あいうえおかきくけこさしすせそたちつてとなにぬねのテキストファイル検索設定"];
const ZH_SYL = [..."中文本搜索测试数据库服务器文件配置错误检查结果"];
function vocabulary(syllables: readonly string[], size: number, min: number, max: number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const len = min + Math.floor(rand() * (max - min + 1));
    let w = "";
    for (let i = 0; i < len; i++) w += pick(syllables);
    words.add(w);
  }
  return [...words];
}
const EN = [
  ..."the a to of and in is it for on that with file error build test run config server".split(" "),
  ...vocabulary(EN_SYL, 20_000, 2, 4),
];
const KO = vocabulary(KO_SYL, 20_000, 2, 4);
const JA = vocabulary(JA_SYL, 5_000, 2, 5);
const ZH = vocabulary(ZH_SYL, 5_000, 2, 4);

function sentence(words: number): string {
  const lang = rand();
  const pool = lang < 0.55 ? EN : lang < 0.85 ? KO : lang < 0.93 ? JA : ZH;
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(zipf(pool));
  return out.join(pool === EN || pool === KO ? " " : "");
}

const origin = { provider: "anthropic", apiMode: "anthropic_messages", model: "claude-bench" } as const;
const usage = {
  inputTokens: 40_000,
  outputTokens: 300,
  cacheReadTokens: 38_000,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
};

function round(i: number): NodeInput[] {
  const assistant: AssistantMessage = {
    role: "assistant",
    parts: [
      {
        type: "reasoning",
        text: sentence(8),
        raw: { type: "thinking", thinking: "…", signature: `sig${i}` },
      },
      { type: "text", text: sentence(12) },
      ...[0, 1, 2].map((k) => ({
        type: "toolCall" as const,
        callId: `call_${i}_${k}`,
        name: "read_file",
        argumentsJson: JSON.stringify({ path: `src/${zipf(EN)}.ts` }),
      })),
    ],
    origin,
    usage,
    stopReason: "tool_calls",
  };
  const result = (k: number): ToolResultMessage => ({
    role: "tool",
    callId: `call_${i}_${k}`,
    toolName: "read_file",
    content: sentence(30),
    isError: false,
  });
  return [
    { kind: "message", message: assistant, tokens: 120 },
    { kind: "message", message: result(0), tokens: 60 },
    { kind: "message", message: result(1), tokens: 60 },
    { kind: "message", message: result(2), tokens: 60 },
  ];
}

function fileBytes(path: string): number {
  let total = 0;
  for (const p of [path, `${path}-wal`]) {
    try {
      total += statSync(p).size;
    } catch {
      // no WAL after a truncating checkpoint
    }
  }
  return total;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** Wall and CPU seconds of `fn` (CPU time is what counts on a machine shared with other work). */
function measure(fn: () => void): { wallS: number; cpuS: number } {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  fn();
  const cpu = process.cpuUsage(cpu0);
  return { wallS: (performance.now() - t0) / 1000, cpuS: (cpu.user + cpu.system) / 1e6 };
}

const fmt = (n: number, digits = 1) => n.toLocaleString("en-US", { maximumFractionDigits: digits });
const verdict = (ok: boolean) => (ok ? "OK " : "MISS");
const dir = mkdtempSync(join(tmpdir(), "iris-bench-store-"));

/** The timed appends; the inputs, built beforehand, are garbage once it returns. */
function appendRounds(store: Store, sessionId: string, rounds: number): { wallS: number; cpuS: number } {
  const inputs = Array.from({ length: rounds }, (_, i) => round(i));
  return measure(() => {
    for (const r of inputs) store.appendNodes(sessionId, r);
  });
}

function benchAppendAndPath(): void {
  const path = join(dir, "append.db");
  const store = openStore(path);
  const session = store.createSession({ source: "bench" });
  store.appendNode(session.id, { kind: "message", message: { role: "user", content: sentence(10) } });
  const rounds = Math.ceil(APPEND_NODES / 4);
  const { wallS, cpuS } = appendRounds(store, session.id, rounds);
  const nodes = rounds * 4;
  const rate = nodes / wallS;
  console.log(
    `[${verdict(rate >= 20_000)}] append: ${fmt(nodes, 0)} nodes in rounds of 4 (one transaction each): ` +
      `${fmt(rate, 0)} nodes/s wall (${fmt(wallS, 2)} s; target >= 20,000), ` +
      `${fmt(nodes / cpuS, 0)} nodes per CPU-second (${fmt((cpuS / nodes) * 1e6, 1)} CPU-µs/node, all threads)`,
  );
  console.log(`[info] WAL checkpoints on a worker thread: ${store.checkpointing} (checkpointer.ts)`);
  store.db.pragma("wal_checkpoint(TRUNCATE)");
  const nodesOnly = fileBytes(path) / (nodes / 1000);

  // Appends no longer index for search (migration 0003); the first search pays for it in bulk.
  const backlog = store.searchIndexBacklog();
  const index = measure(() => store.search("ripgrep", { limit: 20 }));
  console.log(
    `[info] search catch-up: the first search after the append indexed ${fmt(backlog, 0)} nodes in ` +
      `${fmt(index.wallS, 2)} s wall (${fmt((index.cpuS / backlog) * 1e6, 1)} CPU-µs/node); ` +
      `append + indexing = ${fmt(nodes / (cpuS + index.cpuS), 0)} nodes per CPU-second`,
  );
  const fresh: number[] = [];
  for (let i = 0; i < 50; i++) {
    store.appendNodes(session.id, round(rounds + i));
    fresh.push(measure(() => store.search(zipf(EN.slice(20)), { limit: 20 })).wallS * 1000);
  }
  fresh.sort((a, b) => a - b);
  console.log(
    `[info] search right after appending a round (indexes 4 nodes, then queries): median ` +
      `${fmt(quantile(fresh, 0.5), 2)} ms, max ${fmt(fresh.at(-1) ?? 0, 2)} ms`,
  );
  store.db.pragma("wal_checkpoint(TRUNCATE)");
  const indexed = fileBytes(path) / (nodes / 1000);
  console.log(
    `[info] size: ${fmt(indexed / 1024, 1)} KiB per 1,000 nodes with both FTS indexes ` +
      `(${fmt(nodesOnly / 1024, 1)} KiB before indexing; realistic rounds)`,
  );

  pathAssembly(store, path);
}

function pathAssembly(store: Store, path: string): void {
  const session = store.createSession({ source: "bench" });
  const batch: NodeInput[] = [];
  for (let i = 0; i < PATH_NODES; i++) {
    const message: Message =
      i % 2 === 0
        ? { role: "user", content: sentence(15) }
        : { role: "tool", callId: `c${i}`, toolName: "t", content: sentence(25), isError: false };
    batch.push({ kind: "message", message });
  }
  store.appendNodes(session.id, batch);
  const leaf = store.activeLeaf(session.id);
  if (!leaf) throw new Error("no leaf");
  store.close();

  // The first read after opening the store (a resumed session), then repeated reads on one
  // store (every turn re-reads the path; the store keeps the run's text, so each read fetches
  // only what was appended since, and still parses every message anew).
  const first: number[] = [];
  let reopened = openStore(path);
  for (let i = 0; i < 7; i++) {
    reopened.close();
    reopened = openStore(path);
    first.push(measure(() => reopened.pathToRoot(leaf.id)).wallS * 1000);
  }
  const times: number[] = [];
  let length = 0;
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < 21; i++) {
    const t0 = performance.now();
    const nodes = reopened.pathToRoot(leaf.id);
    times.push(performance.now() - t0);
    length = nodes.length;
  }
  const cpu = process.cpuUsage(cpu0);
  reopened.close();
  const cpuMs = (cpu.user + cpu.system) / 1000 / 21;
  times.sort((a, b) => a - b);
  first.sort((a, b) => a - b);
  const median = quantile(times, 0.5);
  const firstMedian = quantile(first, 0.5);
  console.log(
    `[${verdict(median < 50)}] path: ${fmt(length, 0)}-node path assembled in ${fmt(median, 2)} ms median on ` +
      `repeated reads (max ${fmt(times.at(-1) ?? 0, 2)} ms, ${fmt(cpuMs, 2)} CPU-ms each; target < 50 ms; ` +
      "every message parsed each time)",
  );
  console.log(
    `[info] path, first read after opening the store (a resumed session: nothing cached, SQLite's page ` +
      `cache empty): ${fmt(firstMedian, 2)} ms median of ${first.length} (min ${fmt(first[0] ?? 0, 2)} ms, ` +
      `max ${fmt(first.at(-1) ?? 0, 2)} ms)`,
  );
}

/**
 * 1M nodes in one transaction, then one search-index catch-up: appends write nodes only
 * (migration 0003), and the catch-up indexes everything above the watermark in bulk.
 */
function buildCorpus(store: Store): { insertS: number; indexS: number } {
  const session = store.createSession({ source: "bench" });
  const insert = store.db.prepare(
    "INSERT INTO nodes (id, session_id, parent_id, kind, role, payload, search_text, created_at) " +
      "VALUES (?, ?, ?, 'message', 'user', ?, ?, ?)",
  );
  const now = Date.now();
  const inserted = measure(() =>
    store.db.transaction(() => {
      let parent: string | null = null;
      for (let i = 0; i < FTS_NODES; i++) {
        const text = sentence(6 + Math.floor(rand() * 14));
        const id = `n${i}`;
        const payload = JSON.stringify({ role: "user", content: text });
        insert.run(id, session.id, i % 1000 === 0 ? null : parent, payload, text, now);
        parent = id;
      }
    })(),
  );
  const indexed = measure(() => store.catchUpSearchIndex());
  return { insertS: inserted.wallS, indexS: indexed.wallS };
}

function benchSearch(): void {
  const path = join(dir, "fts.db");
  const store = openStore(path);
  const built = buildCorpus(store);
  store.db.pragma("wal_checkpoint(TRUNCATE)");
  console.log(
    `[info] corpus: ${fmt(FTS_NODES, 0)} multilingual nodes inserted in ${fmt(built.insertS, 1)} s, ` +
      `indexed by one catch-up in ${fmt(built.indexS, 1)} s; ` +
      `${fmt(fileBytes(path) / 1024 / 1024, 0)} MiB = ${fmt(fileBytes(path) / (FTS_NODES / 1000) / 1024, 1)} KiB per 1,000 short nodes`,
  );
  const english = () => (rand() < 0.7 ? zipf(EN.slice(20)) : `${zipf(EN.slice(20))} ${zipf(EN)}`);
  const korean = () => pick(KO.filter((w) => [...w].length >= 3).slice(0, 5000));
  const koreanShort = () => pick(KO.filter((w) => [...w].length === 2).slice(0, 500));
  for (const [label, make, count, target] of [
    ["English (words)", english, QUERIES, true],
    ["Korean (trigram)", korean, QUERIES, true],
    ["Korean 2-char (LIKE scan)", koreanShort, Math.max(5, Math.floor(QUERIES / 30)), false],
  ] as const) {
    const times: number[] = [];
    let hits = 0;
    for (let i = 0; i < count; i++) {
      const q = make();
      const t = performance.now();
      hits += store.search(q, { limit: 20 }).length;
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const median = quantile(times, 0.5);
    const status = target ? verdict(median < 20) : "info";
    console.log(
      `[${status}] search ${label}: median ${fmt(median, 2)} ms, p99 ${fmt(quantile(times, 0.99), 2)} ms ` +
        `over ${count} queries, ${fmt(hits / count, 1)} hits/query${target ? " (target median < 20 ms)" : ""}`,
    );
  }
  store.close();
}

try {
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  console.log(`[info] ${cpus().length} CPUs, load average ${load}; figures are wall-clock unless noted`);
  console.log(
    `store bench: append ${APPEND_NODES}, path ${PATH_NODES}, FTS corpus ${FTS_NODES}, ${QUERIES} queries`,
  );
  benchAppendAndPath();
  benchSearch();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
