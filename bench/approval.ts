// The approval check's cost per command and what it lets run (T4):
//   warm      every corpus command, --rounds times, in a process that has checked before: median, p99
//   cold      a fresh process's first check minus a later check of the same command, --cold times,
//             for an everyday command and for one of loops, substitutions and a here-document
//             (the bash reader is part of the bundle: nothing is loaded on the first check)
//   unasked   the share of a coding session's everyday commands (corpus/everyday.json) that run
//             without a question through the real policy in manual mode, and the outcome per class
//             of the outside trial's corpus (corpus/classes.json)
// Run: npx tsx bench/approval.ts [--rounds 5] [--cold 5]
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { CLASSES, DANGEROUS, EVERYDAY, LOOKALIKES } from "../packages/tools/src/approval/corpus/corpus.js";
import { detectCommand } from "../packages/tools/src/approval/detect.js";
import { createApprovalPolicy } from "../packages/tools/src/approval/policy.js";
import type { ToolContext } from "../packages/tools/src/define.js";
import { localWorkspace } from "../packages/tools/src/workspace/local.js";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} needs a positive whole number`);
  return v;
}

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const ms = (n: number) => `${n.toFixed(n < 1 ? 3 : 1)} ms`;
const home = "/home/alice";
const opts = { home, cwd: `${home}/proj` };
const EVERYDAY_SAMPLE = "git status --short";
const COMPOUND_SAMPLE = 'for f in $(ls *.ts); do [[ -f "$f" ]] && wc -l "$f"; done; cat <<EOF\n$(date)\nEOF';

const childAt = process.argv.indexOf("--cold-child");
if (childAt >= 0) {
  // One fresh process: the first check, then the same command again.
  const command = process.argv[childAt + 1] as string;
  const t0 = performance.now();
  await detectCommand(command, opts);
  const t1 = performance.now();
  await detectCommand(command, opts);
  const t2 = performance.now();
  process.stdout.write(JSON.stringify({ first: t1 - t0, later: t2 - t1 }));
} else {
  const rounds = arg("rounds", 5);
  const colds = arg("cold", 5);
  const corpus = [...DANGEROUS, ...LOOKALIKES, ...CLASSES.flatMap((c) => c.commands), ...EVERYDAY];
  process.stdout.write(
    `approval check: ${corpus.length} commands, load average ${loadavg()[0]?.toFixed(2)}\n`,
  );
  const self = fileURLToPath(import.meta.url);
  const line = (name: string, s: number[]) =>
    `  ${name.padEnd(44)} median ${ms(quantile(s, 0.5))}  p99 ${ms(quantile(s, 0.99))}  max ${ms(s[s.length - 1] ?? 0)}  (n=${s.length})\n`;
  for (const [what, command] of [
    ["everyday command", EVERYDAY_SAMPLE],
    ["loops, substitutions, here-document", COMPOUND_SAMPLE],
  ] as const) {
    const over: number[] = [];
    for (let i = 0; i < colds; i++) {
      const r = spawnSync(process.execPath, ["--import", "tsx", self, "--cold-child", command], {
        encoding: "utf8",
      });
      if (r.status !== 0) throw new Error(`cold run failed: ${r.stderr}`);
      const { first, later } = JSON.parse(r.stdout) as { first: number; later: number };
      over.push(first - later);
    }
    over.sort((a, b) => a - b);
    process.stdout.write(line(`cold: first check over a later (${what})`, over));
  }
  const warm: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const command of corpus) {
      const t0 = performance.now();
      await detectCommand(command, opts);
      warm.push(performance.now() - t0);
    }
  }
  warm.sort((a, b) => a - b);
  process.stdout.write(line("warm, per check", warm));

  const outcome = async (command: string): Promise<"block" | "ask" | "run"> => {
    let asked = false;
    const ctx: ToolContext = {
      signal: new AbortController().signal,
      taskId: "bench",
      workspace: localWorkspace(),
      cwd: opts.cwd,
      progress: () => {},
      approve: async () => {
        asked = true;
        return "deny";
      },
    };
    const d = await createApprovalPolicy({ mode: "manual", home }).check({ name: "terminal" }, command, ctx);
    if (!d.allowed && d.reason.startsWith("blocked:")) return "block";
    return asked ? "ask" : d.allowed ? "run" : "block";
  };
  let unasked = 0;
  const askedEveryday: string[] = [];
  for (const c of EVERYDAY) {
    if ((await outcome(c)) === "run") unasked++;
    else askedEveryday.push(c);
  }
  process.stdout.write(
    `  everyday commands run unasked: ${unasked}/${EVERYDAY.length} (${((100 * unasked) / EVERYDAY.length).toFixed(1)} %)${askedEveryday.length ? `; asked: ${askedEveryday.join(" | ")}` : ""}\n`,
  );
  for (const group of CLASSES) {
    let right = 0;
    for (const c of group.commands) if ((await outcome(c)) === group.expect) right++;
    process.stdout.write(`  ${group.expect.padEnd(5)} ${right}/${group.commands.length}  ${group.class}\n`);
  }
}
