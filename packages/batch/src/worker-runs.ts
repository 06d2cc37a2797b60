// What `iris worker` keeps per batch run it serves: the host processes of that run's route and
// tool menu (processes.ts, the same as an in-process run's), and the folder of its items' logs
// under batch.worker_dir. A job is one item, run by runItem exactly as in-process: its JSONL log
// with receipts is how a job retried after its worker died goes on from where that worker was,
// without running a recorded effect again. The log goes once the queue holds the item's row.
import { existsSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { EFFECT_OUTCOME_UNCERTAIN, type JobContext, type Profile, resolveMainRoute } from "@iris/host";
import { BatchProcesses } from "./processes.js";
import { type BatchJob, type BatchRunOptions, readBatchJob } from "./queue-job.js";
import { emptyRow, runItem } from "./run-item.js";
import type { TrajectoryRow } from "./trajectory.js";

/** A run's processes are closed after this long without a job of it. */
const IDLE_CLOSE_MS = 5 * 60_000;

interface RunContext {
  procs?: BatchProcesses;
  routeError?: string;
  running: number;
  lastUsed: number;
}

export class WorkerRuns {
  private readonly runs = new Map<string, RunContext>();
  /** The log of each running job, removed once its row is stored. */
  private readonly logs = new Map<string, string>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly profile: Profile,
    private readonly env: Record<string, string | undefined>,
    private readonly workDir: string,
  ) {
    this.sweeper = setInterval(() => void this.closeIdle(), 60_000);
    this.sweeper.unref();
  }

  /** Runs one job (one item); its row. Throws for a job that is no batch item, or one stopped before it ended. */
  async run(job: JobContext<unknown>): Promise<TrajectoryRow> {
    const read = readBatchJob(job.data);
    if (!read.ok) throw new Error(read.error);
    const { run, item, options } = read.job;
    const ctx = this.contextOf(read.job);
    ctx.running += 1;
    try {
      if (!ctx.procs)
        return emptyRow(item, "failed", "route_error", {
          error: ctx.routeError ?? "",
          format: options.format,
        });
      const procs = ctx.procs;
      const logPath = procs.trajectoryPath(item.key);
      this.logs.set(job.id, logPath);
      const lost = this.lostLog(job, logPath);
      if (lost)
        return emptyRow(item, "failed", EFFECT_OUTCOME_UNCERTAIN, { error: lost, format: options.format });
      const outcome = await runItem(item, {
        processFor: (t) => procs.processFor(t),
        runtimeFor: (m) => procs.runtimeFor(m),
        ...(options.maxRounds !== undefined ? { maxRounds: options.maxRounds } : {}),
        itemTimeoutMs: (options.itemTimeoutSeconds ?? this.profile.config.batch.item_timeout_seconds) * 1000,
        keepWorkdirs: options.keepWorkdirs,
        format: options.format,
        trajectoryPath: (key) => procs.trajectoryPath(key),
        stop: job.signal,
      });
      if (outcome.kind === "interrupted")
        throw new Error(`item ${item.key} of run ${run} was stopped before it ended`);
      return outcome.row;
    } finally {
      ctx.running -= 1;
      ctx.lastUsed = Date.now();
    }
  }

  /** The queue holds the job's row: its log is no longer needed for a retry. */
  completed(jobId: string): void {
    const path = this.logs.get(jobId);
    this.logs.delete(jobId);
    if (path) rmSync(path, { force: true });
  }

  /**
   * An earlier start of this job ran on another machine and left no log this worker can read:
   * what it did is unknown, so the item ends here rather than risk running an effect twice.
   */
  private lostLog(job: JobContext<unknown>, logPath: string): string | undefined {
    const before = job.previousWorker;
    if (job.attempt < 2 || !before || existsSync(logPath)) return undefined;
    const host = before.slice(0, Math.max(0, before.lastIndexOf("/")));
    if (host === hostname()) return undefined;
    return (
      `${EFFECT_OUTCOME_UNCERTAIN}: the worker that began this item (${before}) stopped, and its ` +
      `conversation log is not in ${this.workDir}; set batch.worker_dir to a folder every worker shares`
    );
  }

  private contextOf(job: BatchJob): RunContext {
    const key = JSON.stringify([job.run, job.options.route, job.options.toolsets ?? null]);
    let ctx = this.runs.get(key);
    if (!ctx) {
      ctx = this.open(job.run, job.options);
      this.runs.set(key, ctx);
    }
    ctx.lastUsed = Date.now();
    return ctx;
  }

  private open(run: string, options: BatchRunOptions): RunContext {
    const { profile } = this;
    const main = resolveMainRoute(options.route, profile.config, profile.env);
    if (!main.ok) return { routeError: main.error, running: 0, lastUsed: Date.now() };
    const procs = new BatchProcesses({
      profile,
      env: this.env,
      trajectoriesDir: join(this.workDir, run),
      ...(options.toolsets ? { toolsets: options.toolsets } : {}),
      route: options.route,
      mainRuntime: main.runtime,
    });
    return { procs, running: 0, lastUsed: Date.now() };
  }

  private async closeIdle(): Promise<void> {
    const now = Date.now();
    for (const [key, ctx] of this.runs)
      if (ctx.running === 0 && now - ctx.lastUsed > IDLE_CLOSE_MS) {
        this.runs.delete(key);
        await ctx.procs?.close();
      }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.runs.values()];
    this.runs.clear();
    await Promise.all(all.map((c) => c.procs?.close()));
  }
}
