// `iris batch IN.jsonl --out OUT.jsonl` (SPEC E4, issue 18): read the input, work out what is
// already done from OUT itself, run the rest with N workers, append one fsynced row per item,
// and end with a summary. Exit codes: 0 every item has a row and none failed; 1 some failed, were
// stopped by a budget (rows budget_exceeded) or did not run; 2 bad input, options or config; 130 interrupted.
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import {
  type IrisConfig,
  loadProfileOrExit,
  type RouteFlags,
  resolveMainRoute,
  routeFlagsOf,
  splitModelSpec,
} from "@iris/host";
import type { ApiMode } from "@iris/llm";
import { editedKeys } from "./edited.js";
import { type BatchItem, parseInput } from "./input.js";
import { DurableJsonl, JsonlFileError } from "./jsonl-file.js";
import { batchPaths, dropRows, failureOf, type Ledger, readLedger } from "./ledger.js";
import { BatchProcesses } from "./processes.js";
import { Progress } from "./progress.js";
import { emptyRow, runItem } from "./run-item.js";
import { RunLockError, takeRunLock } from "./run-lock.js";
import { compareInput, readMeta, writeMeta } from "./run-meta.js";
import { formatSummary, Tally } from "./summary.js";
import type { RowStatus, TrajectoryFormat, TrajectoryRow } from "./trajectory.js";

export interface BatchOptions {
  input: string;
  out: string;
  failed?: string;
  concurrency?: number;
  maxRounds?: number;
  toolsets?: string[];
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiMode?: ApiMode;
  budgetUsd?: number;
  maxItems?: number;
  resume?: boolean;
  force?: boolean;
  rerun?: RowStatus[];
  profile?: string;
  jsonSummary?: string;
  itemTimeoutSeconds?: number;
  keepWorkdirs?: boolean;
  /** The rows' conversation layout (default sharegpt). */
  format?: TrajectoryFormat;
  env?: Record<string, string | undefined>;
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Aborting it stops the run like Ctrl-C (the CLI wires SIGINT/SIGTERM to it). */
  signal?: AbortSignal;
}

class UsageError extends Error {}

export async function runBatch(opts: BatchOptions): Promise<number> {
  const stderr = opts.stderr ?? process.stderr;
  let release: (() => void) | undefined;
  try {
    const outDir = dirname(resolve(opts.out));
    if (!existsSync(outDir)) throw new UsageError(`the folder of --out does not exist: ${outDir}`);
    release = takeRunLock(batchPaths(opts.out, opts.failed).lock);
    return await run(opts, stderr);
  } catch (err) {
    if (err instanceof UsageError || err instanceof JsonlFileError || err instanceof RunLockError) {
      stderr.write(`iris batch: ${err.message}\n`);
      return 2;
    }
    throw err;
  } finally {
    release?.();
  }
}

function hasContent(path: string): boolean {
  return existsSync(path) && statSync(path).size > 0;
}

async function run(opts: BatchOptions, stderr: NodeJS.WritableStream & { isTTY?: boolean }): Promise<number> {
  const env = opts.env ?? process.env;
  const loaded = loadProfileOrExit({ env, ...(opts.profile ? { profile: opts.profile } : {}) });
  if (!loaded.ok) {
    stderr.write(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  const { profile } = loaded;
  const cfg = profile.config.batch;
  const concurrency = opts.concurrency ?? cfg.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new UsageError("--concurrency must be 1 or more");
  let text: string;
  try {
    text = readFileSync(opts.input, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read the input ${opts.input}: ${(err as Error).message}`);
  }
  const input = parseInput(text, opts.maxItems !== undefined ? { maxItems: opts.maxItems } : {});
  const paths = batchPaths(opts.out, opts.failed);
  if (!opts.resume && (hasContent(paths.out) || hasContent(paths.failed)))
    throw new UsageError(
      `${paths.out} (or ${paths.failed}) already has rows: add --resume to continue that run, or choose another --out`,
    );
  const ledger: Ledger = opts.resume
    ? readLedger(paths, { rerun: opts.rerun ?? [] })
    : { rows: new Map(), failures: new Map(), notes: [] };
  for (const n of ledger.notes) stderr.write(`iris batch: ${n}\n`);

  const trajectoryOptions = {
    model: opts.model ?? null,
    provider: opts.provider ?? null,
    toolsets: opts.toolsets ?? null,
    max_rounds: opts.maxRounds ?? null,
    // Only when not the default, so the runs of earlier versions compare equal.
    ...(opts.format === "openai" ? { format: "openai" } : {}),
  };
  const meta = opts.resume ? readMeta(paths.meta) : undefined;
  const format = opts.format ?? "sharegpt";
  const formatBefore = meta ? ((meta.options.format as string | undefined) ?? "sharegpt") : format;
  if (formatBefore !== format)
    throw new UsageError(
      `${paths.out} holds --format ${formatBefore} rows: resume it with --format ${formatBefore}`,
    );
  const change = compareInput(
    meta,
    { sha256: input.sha256, allKeys: input.allKeys, options: trajectoryOptions },
    // Only rows count: a malformed line fixed since has a new key, and that is fine.
    ledger.rows.keys(),
  );
  if (change.message) stderr.write(`iris batch: ${change.message}\n`);
  const edited = editedKeys(input.items, ledger.rows);
  if (edited.length)
    stderr.write(
      `iris batch: ${edited.length} item(s) with a row were edited in the input since (their id is kept): ` +
        `${edited.slice(0, 5).join(", ")}${edited.length > 5 ? ", …" : ""}${opts.force ? "; --force: they run again" : ""}\n`,
    );
  if ((change.orphans.length || edited.length) && !opts.force)
    throw new UsageError(
      "the input no longer matches the output; check the input, or add --force to go on anyway",
    );
  if (edited.length) dropRows(paths, ledger, edited);

  const route: RouteFlags = routeFlagsOf(mainRouteFlags(opts, profile.config));
  const main = resolveMainRoute(route, profile.config, profile.env);
  if (!main.ok) throw new UsageError(main.error);

  writeMeta(paths.meta, {
    version: 1,
    input: { path: opts.input, sha256: input.sha256, lines: input.lines },
    options: trajectoryOptions,
    runs: [...(meta?.runs ?? []), { started_at: new Date().toISOString(), resumed: opts.resume === true }],
  });

  const outFile = new DurableJsonl(paths.out);
  const failFile = new DurableJsonl(paths.failed);
  // The failure file matches OUT: malformed lines and failed rows each have one entry.
  for (const m of input.malformed)
    if (!ledger.failures.has(m.key)) {
      const entry = { key: m.key, line: m.line, status: "malformed" as const, error: m.error, text: m.text };
      await failFile.append(entry);
      ledger.failures.set(m.key, entry);
    }
  const lineOf = new Map(input.items.map((i) => [i.key, i.line]));
  for (const r of ledger.rows.values())
    if (r.status === "failed" && !ledger.failures.has(r.key))
      await failFile.append(failureOf(r, lineOf.get(r.key) ?? 0));

  const tally = new Tally();
  for (const r of ledger.rows.values()) tally.add(r, false);
  const todo = input.items.filter((i) => !ledger.rows.has(i.key));
  const skipped = input.items.length - todo.length;
  const progress = new Progress({ out: stderr, total: input.items.length, skipped }, tally);
  const started = Date.now();

  const procs = new BatchProcesses({
    profile,
    env,
    trajectoriesDir: paths.trajectories,
    ...(opts.toolsets ? { toolsets: opts.toolsets } : {}),
    route,
    mainRuntime: main.runtime,
  });
  procs.dropLogsExcept(todo.map((i) => i.key));
  procs.limiter.onPause((p) =>
    progress.note(`iris batch: ${p.route} answered 429: every worker waits ${Math.ceil(p.ms / 1000)} s`),
  );
  const stop = new AbortController();
  const onStop = () => stop.abort();
  opts.signal?.addEventListener("abort", onStop, { once: true });
  const budgetReached = () => opts.budgetUsd !== undefined && tally.cost >= opts.budgetUsd;
  const record = async (row: TrajectoryRow, item: BatchItem) => {
    // OUT first: its row is what resume trusts; a failure entry lost to a kill is re-added above.
    await outFile.append(row);
    // Only now: a kill before the row is whole leaves the log, and resume reads the row from it.
    rmSync(procs.trajectoryPath(item.key), { force: true });
    if (row.status === "failed") await failFile.append(failureOf(row, item.line));
    tally.add(row, true);
    progress.update();
  };

  let next = 0;
  let interrupted = false;
  const worker = async () => {
    for (;;) {
      if (stop.signal.aborted || budgetReached()) return;
      const item = todo[next++];
      if (!item) return;
      const outcome = await runItem(item, {
        processFor: (t) => procs.processFor(t),
        runtimeFor: (m) => procs.runtimeFor(m),
        ...(opts.maxRounds !== undefined ? { maxRounds: opts.maxRounds } : {}),
        itemTimeoutMs: (opts.itemTimeoutSeconds ?? cfg.item_timeout_seconds) * 1000,
        keepWorkdirs: opts.keepWorkdirs === true,
        format,
        trajectoryPath: (key) => procs.trajectoryPath(key),
        stop: stop.signal,
      });
      if (outcome.kind === "interrupted") {
        interrupted = true;
        return;
      }
      await record(outcome.row, item);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, todo.length)) }, worker));
    interrupted ||= stop.signal.aborted;
    const reached = !interrupted && budgetReached();
    if (reached)
      for (const item of todo.slice(next))
        await record(
          emptyRow(item, "budget_exceeded", "batch_budget_reached", {
            error: `--budget-usd ${opts.budgetUsd} was reached before this item started`,
            format,
          }),
          item,
        );
    progress.finish();
    const summary = tally.summary({
      input: opts.input,
      output: paths.out,
      failureFile: paths.failed,
      items: input.items.length,
      notRun: input.items.filter((i) => !tally.keys.has(i.key)).length,
      malformed: input.malformed.length,
      skippedDone: skipped,
      durationMs: Date.now() - started,
      pauses: procs.limiter.pauses,
      interrupted,
      budgetReached: reached,
    });
    stderr.write(formatSummary(summary));
    if (opts.jsonSummary) writeFileSync(opts.jsonSummary, `${JSON.stringify(summary, null, 2)}\n`);
    if (interrupted) return 130;
    const unfinished = (summary.by_status.failed ?? 0) + (summary.by_status.budget_exceeded ?? 0);
    return summary.not_run === 0 && unfinished === 0 ? 0 : 1;
  } finally {
    opts.signal?.removeEventListener("abort", onStop);
    await outFile.close();
    await failFile.close();
    await procs.close();
  }
}

/** --model PROVIDER/MODEL names the provider too, unless --provider does. */
function mainRouteFlags(opts: BatchOptions, config: IrisConfig): RouteFlags {
  const flags: RouteFlags = { ...opts };
  if (opts.model && !opts.provider) {
    const spec = splitModelSpec(opts.model, config, config.model.provider ?? "");
    if (spec.provider) {
      flags.provider = spec.provider;
      flags.model = spec.model;
    }
  }
  return flags;
}
