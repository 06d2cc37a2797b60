// JobQueue on BullMQ, one code path for both engines (bullmq-connection.ts holds the only
// difference). Finished jobs are kept until their producer removes them; completion and failure
// reach the producer as events (QueueEvents: LISTEN/NOTIFY on Postgres, a stream on Redis).
import {
  type BullMqParts,
  bullMqParts,
  newQueue,
  newQueueEvents,
  type Queue,
  type QueueEvents,
  redactUrl,
} from "./bullmq-connection.js";
import { BullMqWorker } from "./bullmq-worker.js";
import { fromBullId, toBullId } from "./job-id.js";
import type {
  JobContext,
  JobInfo,
  JobQueue,
  JobQueueBackend,
  JobQueueOptions,
  JobState,
  QueueWorker,
  WorkOptions,
} from "./job-queue.js";

/** The queue's server cannot be reached (at open): the message names the URL without its password. */
export class QueueUnavailableError extends Error {}

const NAME_RE = /^[A-Za-z0-9_.-]{1,100}$/;
const STATES: readonly JobState[] = ["waiting", "active", "delayed", "completed", "failed", "unknown"];
const OPEN_TIMEOUT_MS = 15_000;

function withTimeout<T>(p: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new QueueUnavailableError(what())), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export async function openBullMqQueue<D, R>(opts: JobQueueOptions): Promise<JobQueue<D, R>> {
  if (!NAME_RE.test(opts.name))
    throw new Error(`queue name ${JSON.stringify(opts.name)}: use letters, digits, '-', '_' and '.'`);
  const parts = await bullMqParts(opts);
  const queue = newQueue(parts, opts.name);
  let lastError = "";
  queue.on("error", (err: Error) => {
    lastError = err.message;
  });
  try {
    await withTimeout(
      queue.getJobCounts("waiting"),
      opts.openTimeoutMs ?? OPEN_TIMEOUT_MS,
      () =>
        `cannot reach the ${opts.backend} queue at ${redactUrl(opts.url)}${lastError ? `: ${lastError}` : ""}`,
    );
  } catch (err) {
    await queue.close().catch(() => undefined);
    if (err instanceof QueueUnavailableError) throw err;
    throw new QueueUnavailableError(
      `cannot reach the ${opts.backend} queue at ${redactUrl(opts.url)}: ${(err as Error).message}`,
    );
  }
  return new BullMqQueue<D, R>(opts, parts, queue);
}

class BullMqQueue<D, R> implements JobQueue<D, R> {
  readonly backend: JobQueueBackend;
  readonly name: string;
  private events: Promise<QueueEvents> | undefined;
  private readonly listeners = new Set<(id: string) => void>();
  private readonly workers = new Set<BullMqWorker<D, R>>();

  constructor(
    private readonly opts: JobQueueOptions,
    private readonly parts: BullMqParts,
    private readonly queue: Queue,
  ) {
    this.backend = opts.backend;
    this.name = opts.name;
  }

  async add(id: string, data: D): Promise<void> {
    if (!id) throw new Error("a job needs an id");
    // Kept until the producer removes them: it reads each result once.
    await this.queue.add("job", data, { jobId: toBullId(id), removeOnComplete: false, removeOnFail: false });
  }

  async get(id: string): Promise<JobInfo<R> | undefined> {
    const job = await this.queue.getJob(toBullId(id));
    if (!job) return undefined;
    const raw = await job.getState();
    const state: JobState = STATES.includes(raw as JobState) ? (raw as JobState) : "waiting";
    return {
      id,
      state,
      ...(state === "completed" ? { result: job.returnvalue as R } : {}),
      ...(state === "failed" ? { error: job.failedReason } : {}),
      attempts: job.attemptsStarted ?? 0,
    };
  }

  async remove(id: string): Promise<boolean> {
    return (await this.queue.remove(toBullId(id))) === 1;
  }

  async onFinished(listener: (id: string) => void): Promise<() => void> {
    this.events ??= this.openEvents();
    await this.events;
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async openEvents(): Promise<QueueEvents> {
    const events = newQueueEvents(this.parts, this.name);
    const emit = ({ jobId }: { jobId: string }) => {
      for (const l of this.listeners) l(fromBullId(jobId));
    };
    events.on("completed", emit);
    events.on("failed", emit);
    events.on("error", () => undefined); // it reconnects by itself; the producer's sweep covers the gap
    await events.waitUntilReady();
    return events;
  }

  async work(handler: (job: JobContext<D>) => Promise<R>, opts: WorkOptions): Promise<QueueWorker> {
    const worker = new BullMqWorker<D, R>(this.opts, this.parts, this.queue, handler, opts, () =>
      this.workers.delete(worker),
    );
    this.workers.add(worker);
    await worker.ready();
    return worker;
  }

  async counts(): Promise<Record<JobState, number>> {
    const c = await this.queue.getJobCounts("waiting", "active", "delayed", "completed", "failed");
    return {
      waiting: c.waiting ?? 0,
      active: c.active ?? 0,
      delayed: c.delayed ?? 0,
      completed: c.completed ?? 0,
      failed: c.failed ?? 0,
      unknown: 0,
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.workers].map((w) => w.close("finish")));
    const events = this.events;
    this.events = undefined;
    if (events) await (await events.catch(() => undefined))?.close();
    await this.queue.close();
  }
}
