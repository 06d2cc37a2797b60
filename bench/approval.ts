// The approval check's cost per command (issue 13): `detectCommand` over the whole corpus
// (packages/tools/src/approval/corpus), parser warm, plus the cold first call of a fresh process,
// which pays for loading the shell parser (mvdan-sh) once. Start-up itself never loads it.
//   warm      every corpus command, --rounds times, after the parser is loaded: median and p99
//   cold      a fresh process's first check (parser load included), --cold times: median and p99
//   load      of the cold figure, the parser load alone (shellParserLoaded → first parse)
// Run: npx tsx bench/approval.ts [--rounds 5] [--cold 5]
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { DANGEROUS, LOOKALIKES } from "../packages/tools/src/approval/corpus/corpus.js";
import { detectCommand } from "../packages/tools/src/approval/detect.js";
import { loadShellParser } from "../packages/tools/src/approval/shell-parser.js";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} needs a positive whole number`);
  return v;
}

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const ms = (n: number) => `${n.toFixed(n < 1 ? 3 : 1)} ms`;
const opts = { home: "/home/alice", cwd: "/home/alice/proj" };

if (process.argv.includes("--cold-child")) {
  // One cold check in this fresh process: the parser load, then the first command.
  const t0 = performance.now();
  await loadShellParser();
  const loaded = performance.now();
  await detectCommand(DANGEROUS[0] as string, opts);
  const t1 = performance.now();
  process.stdout.write(JSON.stringify({ total: t1 - t0, load: loaded - t0 }));
} else {
  const rounds = arg("rounds", 5);
  const colds = arg("cold", 5);
  const corpus = [...DANGEROUS, ...LOOKALIKES];
  process.stdout.write(
    `approval check: ${corpus.length} commands (${DANGEROUS.length} dangerous, ${LOOKALIKES.length} look-alikes), load average ${loadavg()[0]?.toFixed(2)}\n`,
  );
  const cold: { total: number; load: number }[] = [];
  const self = fileURLToPath(import.meta.url);
  for (let i = 0; i < colds; i++) {
    const r = spawnSync(process.execPath, ["--import", "tsx", self, "--cold-child"], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`cold run failed: ${r.stderr}`);
    cold.push(JSON.parse(r.stdout) as { total: number; load: number });
  }
  await loadShellParser();
  const warm: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const command of corpus) {
      const t0 = performance.now();
      await detectCommand(command, opts);
      warm.push(performance.now() - t0);
    }
  }
  warm.sort((a, b) => a - b);
  const totals = cold.map((c) => c.total).sort((a, b) => a - b);
  const loads = cold.map((c) => c.load).sort((a, b) => a - b);
  const line = (name: string, s: number[], n: number) =>
    `  ${name.padEnd(28)} median ${ms(quantile(s, 0.5))}  p99 ${ms(quantile(s, 0.99))}  max ${ms(s[s.length - 1] ?? 0)}  (n=${n})\n`;
  process.stdout.write(line("warm, per command", warm, warm.length));
  process.stdout.write(line("cold first check", totals, totals.length));
  process.stdout.write(line("  of which parser load", loads, loads.length));
}
