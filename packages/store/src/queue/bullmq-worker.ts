// A BullMQ worker behind QueueWorker. Each job gets its own abort signal: aborted when the worker
// hands its jobs back (close("hand-back"): the job returns to the queue at once, for another
// worker) or when its claim on the job is lost (its lock could not be renewed: the job may already
// run elsewhere, so this copy stops). A job whose worker died is found by the stalled-job check of
// any other worker once its lock (lockMs) expires, and runs again, at most maxStalled times.
// Connection trouble is reported once per outage; BullMQ reconnects by itself (on Redis with the
// growing pause of bullmq-connection.ts), and a probe with a growing pause says when it is back.
import { hostname } from "node:os";
import {
  type BullMqParts,
  type Job,
  newWorker,
  type Queue,
  reconnectDelayMs,
  type Worker,
} from "./bullmq-connection.js";
import { fromBullId } from "./job-id.js";
import type { JobContext, JobQueueOptions, QueueWorker, WorkOptions } from "./job-queue.js";

interface Running {
  controller: AbortController;
  /** Why it was aborted. */
  reason?: "hand-back" | "lock-lost";
}

const DEFAULT_LOCK_MS = 30_000;
const RUN_RETRY_MS = 2000;

/** What this worker last wrote into a job's progress: who ran it. */
function workerOf(progress: unknown): string | undefined {
  if (progress && typeof progress === "object" && "worker" in progress) {
    const w = (progress as { worker: unknown }).worker;
    return typeof w === "string" ? w : undefined;
  }
  return undefined;
}

export class BullMqWorker<D, R> implements QueueWorker {
  private readonly worker: Worker;
  private readonly jobs = new Map<string, Running>();
  private readonly identity: string;
  private checking = false;
  private closed: Promise<void> | undefined;

  constructor(
    private readonly opts: JobQueueOptions,
    private readonly parts: BullMqParts,
    private readonly probeQueue: Queue,
    private readonly handler: (job: JobContext<D>) => Promise<R>,
    work: WorkOptions,
    private readonly onClosed: () => void,
  ) {
    this.identity = work.identity ?? `${hostname()}/${process.pid}`;
    const lockMs = opts.lockMs ?? DEFAULT_LOCK_MS;
    this.worker = newWorker(parts, opts.name, (job, token) => this.run(job, token), {
      concurrency: work.concurrency,
      lockDuration: lockMs,
      stalledInterval: opts.stalledCheckMs ?? lockMs,
      maxStalledCount: opts.maxStalled ?? 1,
      name: this.identity,
      // After its run loop failed (the server went away), BullMQ waits this long before trying
      // again (15 s by default); the connections themselves retry with a growing pause.
      runRetryDelay: RUN_RETRY_MS,
    });
    this.worker.on("lockRenewalFailed", (ids: string[]) => {
      for (const id of ids) this.abort(id, "lock-lost");
    });
    this.worker.on("error", (err: Error) => this.connectionTrouble(err));
    const onCompleted = work.onCompleted;
    if (onCompleted) this.worker.on("completed", (job: Job) => onCompleted(fromBullId(job.id ?? "")));
  }

  get running(): number {
    return this.jobs.size;
  }

  async ready(): Promise<void> {
    await this.worker.waitUntilReady();
  }

  private async run(job: Job, token: string | undefined): Promise<R> {
    const bullId = job.id ?? "";
    const previous = job.attemptsStarted > 1 ? workerOf(job.progress) : undefined;
    const entry: Running = { controller: new AbortController() };
    this.jobs.set(bullId, entry);
    try {
      // Who runs it, for the next start's previousWorker; a job runs even when this write fails.
      await job.updateProgress({ worker: this.identity }).catch(() => undefined);
      const result = await this.handler({
        id: fromBullId(bullId),
        data: job.data as D,
        attempt: job.attemptsStarted,
        ...(previous !== undefined ? { previousWorker: previous } : {}),
        signal: entry.controller.signal,
      });
      if (entry.reason === "hand-back") return await this.handBack(job, token);
      if (entry.reason === "lock-lost") throw new Error("this worker lost its claim on the job");
      return result;
    } catch (err) {
      if (entry.reason === "hand-back") return await this.handBack(job, token);
      throw err;
    } finally {
      this.jobs.delete(bullId);
    }
  }

  /** Puts the job back in the queue; BullMQ's WaitingError tells the worker it is no longer ours. */
  private async handBack(job: Job, token: string | undefined): Promise<never> {
    await job.moveToWait(token);
    throw new this.parts.mod.WaitingError();
  }

  private abort(bullId: string, reason: "hand-back" | "lock-lost"): void {
    const entry = this.jobs.get(bullId);
    if (!entry || entry.reason) return;
    entry.reason = reason;
    entry.controller.abort(new Error(reason));
  }

  /** An error from the worker: when the server does not answer, an outage until a probe gets through; else just reported. */
  private async connectionTrouble(err: Error): Promise<void> {
    // One check at a time: the errors of one outage arrive in bursts, from every connection.
    if (this.checking || this.closed) return;
    this.checking = true;
    try {
      if (await this.reachable()) {
        this.opts.onError?.(err.message);
        return;
      }
      this.opts.onConnection?.({ kind: "lost", error: err.message });
      for (let attempt = 1; !this.closed; attempt++) {
        await new Promise((r) => setTimeout(r, reconnectDelayMs(attempt)));
        if (await this.reachable()) break;
      }
      if (!this.closed) this.opts.onConnection?.({ kind: "back" });
    } finally {
      this.checking = false;
    }
  }

  private async reachable(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), 2000);
    });
    try {
      return await Promise.race([this.probeQueue.getJobCounts("waiting").then(() => true), timeout]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  close(how: "finish" | "hand-back"): Promise<void> {
    if (how === "hand-back") for (const id of this.jobs.keys()) this.abort(id, "hand-back");
    this.closed ??= this.worker.close().finally(() => this.onClosed());
    return this.closed;
  }
}
