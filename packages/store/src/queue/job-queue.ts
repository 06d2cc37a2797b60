// The work queue (ARCHITECTURE.md: work that must spread over processes and machines goes
// through BullMQ). One small interface, two engines behind the same code: BullMQ on PostgreSQL
// (the default) and BullMQ on Redis, its tested twin. A job has a logical id chosen by the
// producer; adding an id that exists already is ignored, so a producer that runs again never
// enqueues one twice. A job whose worker dies (its lock expires) goes back to the queue and is
// retried by another worker, at most `maxStalled` times.

export type JobQueueBackend = "postgres" | "redis";

export interface JobQueueOptions {
  backend: JobQueueBackend;
  /** postgres://… or redis://… (rediss:// for TLS). */
  url: string;
  /** The queue's name: workers take the jobs of the queue they name. */
  name: string;
  /** How long a job stays claimed after its worker's last heartbeat (default 30 s). */
  lockMs?: number;
  /** How often workers look for jobs whose worker died (default 30 s). */
  stalledCheckMs?: number;
  /** Retries of a job whose worker died, before it fails (default 1). */
  maxStalled?: number;
  /** How long opening waits for the server before it gives up (default 15 s). */
  openTimeoutMs?: number;
  /** Connection trouble, reported once per outage and once when it ends (a worker's log). */
  onConnection?: (event: ConnectionEvent) => void;
  /** A worker's error while its server answers (a lock it could not renew, a failed write). */
  onError?: (message: string) => void;
}

export type ConnectionEvent = { kind: "lost"; error: string } | { kind: "back" };

export type JobState = "waiting" | "active" | "delayed" | "completed" | "failed" | "unknown";

export interface JobInfo<R> {
  id: string;
  state: JobState;
  /** What the worker returned (completed jobs). */
  result?: R;
  /** Why it failed (failed jobs): the worker's error, or that its workers kept dying. */
  error?: string;
  /** Times a worker began it (a retry after a worker died counts). */
  attempts: number;
}

export interface JobContext<D> {
  id: string;
  data: D;
  /** 1 for the first start; more when an earlier worker died or handed it back. */
  attempt: number;
  /** The worker that began it last time (`host/pid`), when this is not the first start. */
  previousWorker?: string;
  /** Aborted when the job must stop at once: the worker hands it back, or lost its claim on it. */
  signal: AbortSignal;
}

export interface WorkOptions {
  /** Jobs run at once by this worker. */
  concurrency: number;
  /** Who this worker is, for `previousWorker` (default `hostname/pid`). */
  identity?: string;
  /** Called once a job's result is stored in the queue (what it kept for a retry may go now). */
  onCompleted?: (id: string) => void;
}

export interface QueueWorker {
  /** Jobs running now. */
  readonly running: number;
  /**
   * Stops taking jobs. `finish`: waits for the running ones. `hand-back`: aborts them and puts
   * them back in the queue for another worker (their handler must return soon after the abort).
   */
  close(how: "finish" | "hand-back"): Promise<void>;
}

export interface JobQueue<D, R> {
  readonly backend: JobQueueBackend;
  readonly name: string;
  /** Enqueues a job; an id that is in the queue already (in any state) is left as it is. */
  add(id: string, data: D): Promise<void>;
  /** The job's state and outcome; undefined when there is no such job. */
  get(id: string): Promise<JobInfo<R> | undefined>;
  /** Removes a finished or waiting job (a running one stays); false when it is not removed. */
  remove(id: string): Promise<boolean>;
  /**
   * Calls `listener` with the id of each job that completes or fails from now on; resolves, with
   * the unsubscribe, once events flow (subscribe before adding, then read what finished before).
   */
  onFinished(listener: (id: string) => void): Promise<() => void>;
  /** Runs `handler` on this queue's jobs until the returned worker is closed. */
  work(handler: (job: JobContext<D>) => Promise<R>, opts: WorkOptions): Promise<QueueWorker>;
  /** Jobs per state. */
  counts(): Promise<Record<JobState, number>>;
  close(): Promise<void>;
}
