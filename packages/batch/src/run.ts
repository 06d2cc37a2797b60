// `iris batch IN.jsonl --out OUT.jsonl` (SPEC E4, issue 18): read the input, work out what is
// already done from OUT itself (run-plan.ts), run the rest with N workers, append one fsynced row
// per item, and end with a summary. Exit codes: 0 every item has a row and none failed; 1 some
// failed, were stopped by a budget (rows budget_exceeded) or did not run; 2 bad input, options or
// config; 130 interrupted.
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { loadProfileOrExit, type Profile, QueueConfigError, QueueUnavailableError } from "@iris/host";
import type { BatchOptions } from "./batch-options.js";
import type { BatchItem } from "./input.js";
import { DurableJsonl, JsonlFileError } from "./jsonl-file.js";
import { batchPaths, failureOf } from "./ledger.js";
import { BatchProcesses } from "./processes.js";
import { Progress } from "./progress.js";
import { runViaQueue } from "./queue-producer.js";
import { emptyRow, runItem } from "./run-item.js";
import { RunLockError, takeRunLock } from "./run-lock.js";
import { type BatchPlan, planRun, UsageError } from "./run-plan.js";
import { formatSummary, Tally } from "./summary.js";
import type { TrajectoryRow } from "./trajectory.js";

export async function runBatch(opts: BatchOptions): Promise<number> {
  const stderr = opts.stderr ?? process.stderr;
  let release: (() => void) | undefined;
  try {
    const outDir = dirname(resolve(opts.out));
    if (!existsSync(outDir)) throw new UsageError(`the folder of --out does not exist: ${outDir}`);
    release = takeRunLock(batchPaths(opts.out, opts.failed).lock);
    return await run(opts, stderr);
  } catch (err) {
    if (
      err instanceof UsageError ||
      err instanceof JsonlFileError ||
      err instanceof RunLockError ||
      err instanceof QueueConfigError
    ) {
      stderr.write(`iris batch: ${err.message}\n`);
      return 2;
    }
    if (err instanceof QueueUnavailableError) {
      stderr.write(`iris batch: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    release?.();
  }
}

type Stderr = NodeJS.WritableStream & { isTTY?: boolean };

async function run(opts: BatchOptions, stderr: Stderr): Promise<number> {
  const env = opts.env ?? process.env;
  const loaded = loadProfileOrExit({ env, ...(opts.profile ? { profile: opts.profile } : {}) });
  if (!loaded.ok) {
    stderr.write(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  const batch = new BatchRun(opts, loaded.profile, planRun(opts, loaded.profile, stderr), stderr);
  try {
    return await batch.execute();
  } finally {
    await batch.close();
  }
}

/** One run of a planned batch: its output files, workers, tally and progress. */
class BatchRun {
  private readonly outFile: DurableJsonl;
  private readonly failFile: DurableJsonl;
  private readonly tally = new Tally();
  private readonly todo: BatchItem[];
  private readonly progress: Progress;
  private readonly procs: BatchProcesses;
  private readonly stop = new AbortController();
  private readonly onStop = () => this.stop.abort();
  private readonly started = Date.now();
  private next = 0;
  private interrupted = false;

  constructor(
    private readonly opts: BatchOptions,
    private readonly profile: Profile,
    private readonly plan: BatchPlan,
    private readonly stderr: Stderr,
  ) {
    const { paths, ledger, input } = plan;
    this.outFile = new DurableJsonl(paths.out);
    this.failFile = new DurableJsonl(paths.failed);
    for (const r of ledger.rows.values()) this.tally.add(r, false);
    this.todo = input.items.filter((i) => !ledger.rows.has(i.key));
    const skipped = input.items.length - this.todo.length;
    this.progress = new Progress({ out: stderr, total: input.items.length, skipped }, this.tally);
    this.procs = new BatchProcesses({
      profile,
      env: opts.env ?? process.env,
      trajectoriesDir: paths.trajectories,
      ...(opts.toolsets ? { toolsets: opts.toolsets } : {}),
      route: plan.route,
      mainRuntime: plan.mainRuntime,
    });
    this.procs.dropLogsExcept(this.todo.map((i) => i.key));
    this.procs.limiter.onPause((p) =>
      this.progress.note(
        `iris batch: ${p.route} answered 429: every worker waits ${Math.ceil(p.ms / 1000)} s`,
      ),
    );
    opts.signal?.addEventListener("abort", this.onStop, { once: true });
  }

  /** Runs what is left and writes the summary; the exit code. */
  async execute(): Promise<number> {
    await this.knownFailures();
    const reached = this.opts.queue ? await this.viaQueue() : await this.inProcess();
    this.progress.finish();
    return this.summarise(reached);
  }

  /** Runs the items with this process's own workers; true when the budget stopped the run. */
  private async inProcess(): Promise<boolean> {
    const { todo, plan } = this;
    const workers = Math.min(plan.concurrency, Math.max(1, todo.length));
    await Promise.all(Array.from({ length: workers }, () => this.worker()));
    this.interrupted ||= this.stop.signal.aborted;
    const reached = !this.interrupted && this.budgetReached();
    if (reached)
      for (const item of todo.slice(this.next))
        await this.record(
          emptyRow(item, "budget_exceeded", "batch_budget_reached", {
            error: this.budgetError(),
            format: plan.format,
          }),
          item,
        );
    return reached;
  }

  /** Hands the items to `iris worker` processes through the work queue (queue-producer.ts). */
  private async viaQueue(): Promise<boolean> {
    const { opts, plan } = this;
    const { interrupted } = await runViaQueue({
      profile: this.profile,
      runId: plan.runId,
      todo: this.todo,
      options: {
        route: plan.route,
        ...(opts.toolsets ? { toolsets: opts.toolsets } : {}),
        ...(opts.maxRounds !== undefined ? { maxRounds: opts.maxRounds } : {}),
        ...(opts.itemTimeoutSeconds !== undefined ? { itemTimeoutSeconds: opts.itemTimeoutSeconds } : {}),
        keepWorkdirs: opts.keepWorkdirs === true,
        format: plan.format,
      },
      record: (row, item) => this.record(row, item),
      budgetReached: () => this.budgetReached(),
      budgetError: this.budgetError(),
      stop: this.stop.signal,
      note: (m) => this.progress.note(m),
    });
    this.interrupted = interrupted;
    return !interrupted && this.budgetReached();
  }

  private budgetError(): string {
    return `--budget-usd ${this.opts.budgetUsd} was reached before this item started`;
  }

  async close(): Promise<void> {
    this.opts.signal?.removeEventListener("abort", this.onStop);
    await this.outFile.close();
    await this.failFile.close();
    await this.procs.close();
  }

  /** The failure file matches OUT: malformed lines and failed rows each have one entry. */
  private async knownFailures(): Promise<void> {
    const { input, ledger } = this.plan;
    for (const m of input.malformed)
      if (!ledger.failures.has(m.key)) {
        const entry = {
          key: m.key,
          line: m.line,
          status: "malformed" as const,
          error: m.error,
          text: m.text,
        };
        await this.failFile.append(entry);
        ledger.failures.set(m.key, entry);
      }
    const lineOf = new Map(input.items.map((i) => [i.key, i.line]));
    for (const r of ledger.rows.values())
      if (r.status === "failed" && !ledger.failures.has(r.key))
        await this.failFile.append(failureOf(r, lineOf.get(r.key) ?? 0));
  }

  private budgetReached(): boolean {
    return this.opts.budgetUsd !== undefined && this.tally.cost >= this.opts.budgetUsd;
  }

  private async record(row: TrajectoryRow, item: BatchItem): Promise<void> {
    // OUT first: its row is what resume trusts; a failure entry lost to a kill is re-added above.
    await this.outFile.append(row);
    // Only now: a kill before the row is whole leaves the log, and resume reads the row from it.
    rmSync(this.procs.trajectoryPath(item.key), { force: true });
    if (row.status === "failed") await this.failFile.append(failureOf(row, item.line));
    this.tally.add(row, true);
    this.progress.update();
  }

  /** Takes the next item until none is left, the run stops or the budget is reached. */
  private async worker(): Promise<void> {
    const { opts, procs } = this;
    for (;;) {
      if (this.stop.signal.aborted || this.budgetReached()) return;
      const item = this.todo[this.next++];
      if (!item) return;
      const outcome = await runItem(item, {
        processFor: (t) => procs.processFor(t),
        runtimeFor: (m) => procs.runtimeFor(m),
        ...(opts.maxRounds !== undefined ? { maxRounds: opts.maxRounds } : {}),
        itemTimeoutMs: (opts.itemTimeoutSeconds ?? this.profile.config.batch.item_timeout_seconds) * 1000,
        keepWorkdirs: opts.keepWorkdirs === true,
        format: this.plan.format,
        trajectoryPath: (key) => procs.trajectoryPath(key),
        stop: this.stop.signal,
      });
      if (outcome.kind === "interrupted") {
        this.interrupted = true;
        return;
      }
      await this.record(outcome.row, item);
    }
  }

  private summarise(budgetReached: boolean): number {
    const { input, paths } = this.plan;
    const summary = this.tally.summary({
      input: this.opts.input,
      output: paths.out,
      failureFile: paths.failed,
      items: input.items.length,
      notRun: input.items.filter((i) => !this.tally.keys.has(i.key)).length,
      malformed: input.malformed.length,
      skippedDone: input.items.length - this.todo.length,
      durationMs: Date.now() - this.started,
      pauses: this.procs.limiter.pauses,
      interrupted: this.interrupted,
      budgetReached,
    });
    this.stderr.write(formatSummary(summary));
    if (this.opts.jsonSummary) writeFileSync(this.opts.jsonSummary, `${JSON.stringify(summary, null, 2)}\n`);
    if (this.interrupted) return 130;
    const unfinished = (summary.by_status.failed ?? 0) + (summary.by_status.budget_exceeded ?? 0);
    return summary.not_run === 0 && unfinished === 0 ? 0 : 1;
  }
}
