// Per-key limits of `iris serve`: requests running at once and requests per minute (a sliding
// window). Over the per-minute limit the answer is 429 with Retry-After at once. Over the running
// limit a request waits in its key's bounded FIFO queue (a chat UI sends all its users' requests
// on one key) and gets its 429 only when the queue is full or its wait times out (SPEC E3).
// The minute's count is the serve state's (state/: shared by the replicas of a Postgres profile);
// requests running at once are this process's own.
import { ApiError } from "./errors.js";
import { MinuteWindows } from "./state/minute-windows.js";
import type { RequestCounter } from "./state/serve-state.js";

export interface QueueLimits {
  /** Requests that may wait for a slot per key (0: none wait). */
  size: number;
  timeoutMs: number;
}

interface Waiter {
  grant: () => void;
}

const NO_QUEUE: QueueLimits = { size: 0, timeoutMs: 0 };

export class KeyLimits {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(
    private readonly maxConcurrent: number,
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
    private readonly queue: QueueLimits = NO_QUEUE,
    private readonly counter: RequestCounter = new MinuteWindows(),
  ) {}

  /**
   * Takes a slot for `key`, waiting in the key's queue when all are taken; rejects with a 429 when
   * the queue is full or the wait ends (timeout, or `signal`: the client went away). Call the
   * returned release exactly once.
   */
  async acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    await this.countRequest(key);
    if ((this.running.get(key) ?? 0) < this.maxConcurrent) return this.take(key);
    const queue = this.waiting.get(key) ?? [];
    if (queue.length >= this.queue.size) throw this.concurrencyError();
    if (signal?.aborted) throw clientGone();
    this.waiting.set(key, queue);
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          cleanup();
          resolve();
        },
      };
      const leave = (error: unknown) => {
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
        if (!queue.length) this.waiting.delete(key);
        cleanup();
        reject(error);
      };
      const timer = setTimeout(() => leave(this.concurrencyError()), this.queue.timeoutMs);
      const onAbort = () => leave(clientGone());
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      queue.push(waiter);
    });
    return this.releaser(key); // the slot was handed over with its count
  }

  /** Requests of `key` waiting for a slot now. */
  queued(key: string): number {
    return this.waiting.get(key)?.length ?? 0;
  }

  private async countRequest(key: string): Promise<void> {
    const waitMs = await this.counter.countRequest(key, this.perMinute, this.now());
    if (waitMs !== undefined)
      throw new ApiError(
        429,
        `rate limit: ${this.perMinute} requests per minute for this key`,
        "rate_limit_error",
        "rate_limit_exceeded",
        null,
        { "retry-after": String(Math.max(1, Math.ceil(waitMs / 1000))) },
      );
  }

  private concurrencyError(): ApiError {
    const waited =
      this.queue.size > 0
        ? ` (and ${this.queue.size} waiting, each up to ${Math.round(this.queue.timeoutMs / 1000)} s)`
        : "";
    return new ApiError(
      429,
      `concurrency limit: ${this.maxConcurrent} requests at once for this key${waited}`,
      "rate_limit_error",
      "concurrency_limit_exceeded",
      null,
      { "retry-after": "1" },
    );
  }

  private take(key: string): () => void {
    this.running.set(key, (this.running.get(key) ?? 0) + 1);
    return this.releaser(key);
  }

  private releaser(key: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const queue = this.waiting.get(key);
      const next = queue?.shift();
      if (next) {
        if (!queue?.length) this.waiting.delete(key);
        next.grant(); // the slot passes straight to the first waiter: nobody can take it between
        return;
      }
      const n = (this.running.get(key) ?? 1) - 1;
      if (n <= 0) this.running.delete(key);
      else this.running.set(key, n);
    };
  }
}

function clientGone(): ApiError {
  return new ApiError(499, "the client closed the request while it waited", "request_cancelled");
}
