// The tally of a batch run: live figures for the progress line and the end-of-run summary (a
// table on stderr, the same as JSON with --json-summary). Counts cover the whole output file —
// rows an earlier, interrupted run wrote included — so they match OUT line for line.
import type { TrajectoryRow } from "./trajectory.js";

export interface BatchSummary {
  input: string;
  output: string;
  failure_file: string;
  items: number;
  malformed_lines: number;
  rows: number;
  /** Items with no row: not run because the run was interrupted. */
  not_run: number;
  by_status: Record<string, number>;
  by_termination_reason: Record<string, number>;
  mean_rounds: number;
  tool_calls: number;
  tool_errors: Record<string, number>;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_read_tokens: number;
    cache_write_tokens: number;
  };
  cost_usd: number;
  api_calls: number;
  this_run: {
    ran: number;
    skipped_done: number;
    duration_s: number;
    items_per_min: number;
    rate_limit_pauses: number;
    interrupted: boolean;
    budget_reached: boolean;
  };
}

export class Tally {
  readonly byStatus: Record<string, number> = {};
  readonly byReason: Record<string, number> = {};
  readonly toolErrors: Record<string, number> = {};
  rows = 0;
  rounds = 0;
  toolCalls = 0;
  apiCalls = 0;
  cost = 0;
  tokensIn = 0;
  tokensOut = 0;
  cacheRead = 0;
  cacheWrite = 0;
  /** Rows written by this run (not read from an earlier one). */
  ranNow = 0;
  /** The keys that have a row. */
  readonly keys = new Set<string>();

  add(row: TrajectoryRow, now: boolean): void {
    this.rows += 1;
    this.keys.add(row.key);
    if (now) this.ranNow += 1;
    this.byStatus[row.status] = (this.byStatus[row.status] ?? 0) + 1;
    this.byReason[row.termination_reason] = (this.byReason[row.termination_reason] ?? 0) + 1;
    this.rounds += row.rounds;
    this.toolCalls += row.tool_calls.length;
    this.apiCalls += row.api_calls;
    this.cost += row.cost_usd;
    this.tokensIn += row.usage.input_tokens;
    this.tokensOut += row.usage.output_tokens;
    this.cacheRead += row.usage.cache_read_tokens;
    this.cacheWrite += row.usage.cache_write_tokens;
    for (const [tool, s] of Object.entries(row.tool_stats))
      if (s.failure > 0) this.toolErrors[tool] = (this.toolErrors[tool] ?? 0) + s.failure;
  }

  get failed(): number {
    return this.byStatus.failed ?? 0;
  }

  summary(fixed: {
    input: string;
    output: string;
    failureFile: string;
    items: number;
    notRun: number;
    malformed: number;
    skippedDone: number;
    durationMs: number;
    pauses: number;
    interrupted: boolean;
    budgetReached: boolean;
  }): BatchSummary {
    const minutes = fixed.durationMs / 60_000;
    return {
      input: fixed.input,
      output: fixed.output,
      failure_file: fixed.failureFile,
      items: fixed.items,
      malformed_lines: fixed.malformed,
      rows: this.rows,
      not_run: fixed.notRun,
      by_status: { ...this.byStatus },
      by_termination_reason: { ...this.byReason },
      mean_rounds: this.rows ? round2(this.rounds / this.rows) : 0,
      tool_calls: this.toolCalls,
      tool_errors: { ...this.toolErrors },
      usage: {
        input_tokens: this.tokensIn,
        output_tokens: this.tokensOut,
        cache_read_tokens: this.cacheRead,
        cache_write_tokens: this.cacheWrite,
      },
      cost_usd: round6(this.cost),
      api_calls: this.apiCalls,
      this_run: {
        ran: this.ranNow,
        skipped_done: fixed.skippedDone,
        duration_s: round2(fixed.durationMs / 1000),
        items_per_min: minutes > 0 ? round2(this.ranNow / minutes) : 0,
        rate_limit_pauses: fixed.pauses,
        interrupted: fixed.interrupted,
        budget_reached: fixed.budgetReached,
      },
    };
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** The end-of-run table (stderr). */
export function formatSummary(s: BatchSummary): string {
  const lines: string[] = [];
  const pad = (label: string, value: string | number) => `  ${label.padEnd(28)} ${value}`;
  lines.push(`iris batch: ${s.rows}/${s.items} items have a row in ${s.output}`);
  lines.push(pad("this run", `${s.this_run.ran} ran, ${s.this_run.skipped_done} already done`));
  if (s.not_run) lines.push(pad("not run yet", `${s.not_run} (run again with --resume)`));
  if (s.malformed_lines)
    lines.push(pad("malformed input lines", `${s.malformed_lines} (see ${s.failure_file})`));
  lines.push("  status");
  for (const [k, v] of sorted(s.by_status)) lines.push(pad(`    ${k}`, v));
  lines.push("  termination reason");
  for (const [k, v] of sorted(s.by_termination_reason)) lines.push(pad(`    ${k}`, v));
  lines.push(pad("mean rounds", s.mean_rounds));
  lines.push(pad("tool calls", s.tool_calls));
  const errs = sorted(s.tool_errors);
  lines.push(pad("tool errors", errs.length ? errs.map(([k, v]) => `${k} ${v}`).join(", ") : "0"));
  lines.push(pad("api calls", s.api_calls));
  lines.push(pad("tokens in / out", `${s.usage.input_tokens} / ${s.usage.output_tokens}`));
  lines.push(pad("cost", `$${s.cost_usd.toFixed(4)}`));
  lines.push(pad("items per minute (this run)", s.this_run.items_per_min));
  if (s.this_run.rate_limit_pauses) lines.push(pad("rate-limit pauses", s.this_run.rate_limit_pauses));
  if (s.this_run.budget_reached) lines.push(pad("budget", "reached: the rest are marked budget_exceeded"));
  if (s.this_run.interrupted) lines.push(pad("interrupted", "yes: finish with --resume"));
  return `${lines.join("\n")}\n`;
}

function sorted(r: Record<string, number>): [string, number][] {
  return Object.entries(r).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
