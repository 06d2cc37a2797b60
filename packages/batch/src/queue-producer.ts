// `iris batch FILE --out OUT --queue`: the items go to the profile's work queue and any number of
// `iris worker` processes, on any machine, run them; this process only enqueues, waits and writes
// OUT exactly as an in-process run does (run.ts records each row). An item's job id is the run's
// id and its key, so running the command again (--resume after a kill) never enqueues an item
// twice: it finds the jobs that are still queued or running, and the results of those that
// finished meanwhile. A result is removed from the queue only once its row is in OUT.
import { type JobInfo, type JobQueue, openProfileQueue, type Profile } from "@iris/host";
import type { BatchItem } from "./input.js";
import { BATCH_QUEUE, type BatchJob, type BatchRunOptions, batchJobId, batchJobOf } from "./queue-job.js";
import { emptyRow } from "./run-item.js";
import { type TrajectoryRow, trajectoryRowSchema } from "./trajectory.js";

export interface QueueRunContext {
  profile: Profile;
  runId: string;
  todo: readonly BatchItem[];
  options: BatchRunOptions;
  /** Appends the item's row to OUT (and the failure file). */
  record(row: TrajectoryRow, item: BatchItem): Promise<void>;
  budgetReached(): boolean;
  budgetError: string;
  stop: AbortSignal;
  note(message: string): void;
}

/** Jobs read or added at once. */
const CHUNK = 50;
/**
 * With no finish event for this long, the states of the jobs still out are read: an event can be
 * missed (a reconnect), or come late (BullMQ's Postgres QueueEvents reads the stream, then starts
 * to LISTEN: a NOTIFY in between waits out its 5 s poll).
 */
const FIRST_SWEEP_MS = 1000;
const MAX_SWEEP_MS = 60_000;
/** The longest pause between tries while the server does not answer. */
const RETRY_MAX_MS = 30_000;

async function inChunks<T>(
  list: readonly T[],
  each: (x: T) => Promise<void>,
  stop: AbortSignal,
): Promise<void> {
  for (let i = 0; i < list.length && !stop.aborted; i += CHUNK)
    await Promise.all(list.slice(i, i + CHUNK).map(each));
}

/** Runs the items through the queue; true when it was interrupted (jobs left queued for a resume). */
export async function runViaQueue(ctx: QueueRunContext): Promise<{ interrupted: boolean }> {
  const queue = await openProfileQueue<BatchJob, unknown>(ctx.profile, BATCH_QUEUE);
  try {
    return await new QueueRun(ctx, queue).run();
  } finally {
    await queue.close();
  }
}

class QueueRun {
  private readonly pending = new Map<string, BatchItem>();
  private readonly ready = new Set<string>();
  private wake: (() => void) | undefined;

  constructor(
    private readonly ctx: QueueRunContext,
    private readonly queue: JobQueue<BatchJob, unknown>,
  ) {
    for (const item of ctx.todo) this.pending.set(batchJobId(ctx.runId, item.key), item);
  }

  private arrived = (id: string): void => {
    if (!this.pending.has(id)) return;
    this.ready.add(id);
    this.wake?.();
  };

  async run(): Promise<{ interrupted: boolean }> {
    const { ctx, queue } = this;
    const onStop = () => this.wake?.();
    ctx.stop.addEventListener("abort", onStop, { once: true });
    // Subscribed first: a job that finishes while the others are added is not missed.
    const unsubscribe = await queue.onFinished(this.arrived);
    try {
      const ids = [...this.pending.keys()];
      // Adding again is harmless (an id in the queue is left as it is), so each step may be retried.
      await this.retrying(() => inChunks(ids, (id) => queue.add(id, this.jobOf(id)), ctx.stop));
      ctx.note(
        `iris batch: ${ids.length} item(s) in the ${queue.backend} queue ${queue.name}; waiting for iris worker`,
      );
      // Jobs of an earlier run of this command may have finished before we listened.
      await this.retrying(() => this.sweep());
      let idleMs = FIRST_SWEEP_MS;
      while (this.pending.size > 0 && !ctx.stop.aborted) {
        if (this.ready.size === 0 && !(await this.waitForEvent(idleMs))) {
          idleMs = Math.min(idleMs * 2, MAX_SWEEP_MS);
          await this.retrying(() => this.sweep());
        } else idleMs = FIRST_SWEEP_MS;
        await this.retrying(() => this.collect());
      }
      return { interrupted: this.pending.size > 0 };
    } finally {
      unsubscribe();
      ctx.stop.removeEventListener("abort", onStop);
    }
  }

  /**
   * Runs a step until it gets through: while the queue's server does not answer, says so once
   * and tries again after a growing pause (a stop ends the wait; nothing is lost, --resume goes on).
   */
  private async retrying(step: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await step();
        if (attempt > 1) this.ctx.note("iris batch: the queue's server answers again");
        return;
      } catch (err) {
        if (this.ctx.stop.aborted) return;
        if (attempt === 1)
          this.ctx.note(
            `iris batch: the queue's server does not answer (${err instanceof Error ? err.message : err}); retrying`,
          );
        await this.waitForEvent(Math.min(RETRY_MAX_MS, 250 * 2 ** Math.min(attempt - 1, 8)));
      }
    }
  }

  private jobOf(id: string): BatchJob {
    const item = this.pending.get(id) as BatchItem;
    return batchJobOf(this.ctx.runId, item, this.ctx.options);
  }

  /** Resolves true on a finish event (or a stop), false after `ms` without one. */
  private waitForEvent(ms: number): Promise<boolean> {
    if (this.ctx.stop.aborted) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve(false);
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve(true);
      };
    });
  }

  /** Reads the state of every job still out; finished ones are collected next. */
  private async sweep(): Promise<void> {
    await inChunks(
      [...this.pending.keys()],
      async (id) => {
        const state = (await this.queue.get(id))?.state;
        if (state === "completed" || state === "failed") this.ready.add(id);
      },
      this.ctx.stop,
    );
  }

  /** Writes the rows of the finished jobs, then removes those jobs from the queue. */
  private async collect(): Promise<void> {
    for (const id of [...this.ready]) {
      const item = this.pending.get(id);
      const info = item ? await this.queue.get(id) : undefined;
      this.ready.delete(id); // only now: a failed read leaves it for the retry
      if (!item || !info || (info.state !== "completed" && info.state !== "failed")) continue;
      await this.ctx.record(this.rowOf(item, info), item);
      this.pending.delete(id);
      await this.queue.remove(id);
      if (this.ctx.budgetReached()) await this.withdrawWaiting();
    }
  }

  private rowOf(item: BatchItem, info: JobInfo<unknown>): TrajectoryRow {
    const format = this.ctx.options.format;
    if (info.state === "failed") {
      const error = info.error ?? "its worker failed";
      // BullMQ's words for a job whose workers kept dying (maxStalled).
      return emptyRow(item, "failed", /stalled/.test(error) ? "worker_lost" : "worker_error", {
        error: `the queue gave up on this item: ${error}`,
        format,
      });
    }
    const row = trajectoryRowSchema.safeParse(info.result);
    if (row.success && row.data.key === item.key) return row.data;
    return emptyRow(item, "failed", "crash", {
      error: `the worker's result is not this item's row (${row.success ? `key ${row.data.key}` : row.error.issues[0]?.message})`,
      format,
    });
  }

  /** The budget is spent: jobs no worker has begun are taken back (all first), then get a budget_exceeded row. */
  private async withdrawWaiting(): Promise<void> {
    const taken: BatchItem[] = [];
    await inChunks(
      [...this.pending.keys()],
      async (id) => {
        const state = (await this.queue.get(id))?.state;
        if (state !== "waiting" && state !== "delayed") return; // begun: its row comes
        if (!(await this.queue.remove(id))) return; // taken by a worker meanwhile
        taken.push(this.pending.get(id) as BatchItem);
        this.pending.delete(id);
      },
      new AbortController().signal,
    );
    for (const item of taken)
      await this.ctx.record(
        emptyRow(item, "budget_exceeded", "batch_budget_reached", {
          error: this.ctx.budgetError,
          format: this.ctx.options.format,
        }),
        item,
      );
  }
}
