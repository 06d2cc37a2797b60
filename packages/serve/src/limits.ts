// Per-key limits of `iris serve`: requests running at once and requests per minute (a sliding
// window). Over the per-minute limit the answer is 429 with Retry-After at once. Over the running
// limit a request waits in its key's bounded FIFO queue (a chat UI sends all its users' requests
// on one key) and gets its 429 only when the queue is full or its wait times out (SPEC E3).
import { ApiError } from "./errors.js";

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
  private readonly recent = new Map<string, MinuteWindow>();
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(
    private readonly maxConcurrent: number,
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
    private readonly queue: QueueLimits = NO_QUEUE,
  ) {}

  /**
   * Takes a slot for `key`, waiting in the key's queue when all are taken; rejects with a 429 when
   * the queue is full or the wait ends (timeout, or `signal`: the client went away). Call the
   * returned release exactly once.
   */
  async acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    this.countRequest(key);
    if ((this.running.get(key) ?? 0) < this.maxConcurrent) return this.take(key);
    const queue = this.waiting.get(key) ?? [];
    if (queue.length >= this.queue.size) throw this.concurrencyError();
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
      const onAbort = () =>
        leave(new ApiError(499, "the client closed the request while it waited", "request_cancelled"));
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

  private countRequest(key: string): void {
    const t = this.now();
    let window = this.recent.get(key);
    if (!window) {
      window = new MinuteWindow();
      this.recent.set(key, window);
    }
    if (window.count(t) >= this.perMinute) {
      const wait = Math.max(1, Math.ceil(((window.oldest() ?? t) + 60_000 - t) / 1000));
      throw new ApiError(
        429,
        `rate limit: ${this.perMinute} requests per minute for this key`,
        "rate_limit_error",
        "rate_limit_exceeded",
        null,
        { "retry-after": String(wait) },
      );
    }
    window.push(t);
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

/**
 * One key's request times of the last minute, oldest first. Times only grow, so the expired ones
 * are at the front and are stepped over: filtering the whole minute on every request cost time in
 * proportion to the key's rate (18,000 entries at 300 requests/s).
 */
class MinuteWindow {
  private times: number[] = [];
  private head = 0;

  /** Requests within the minute before `now`. */
  count(now: number): number {
    while (this.head < this.times.length && (this.times[this.head] ?? 0) <= now - 60_000) this.head++;
    // The stepped-over part is dropped once it is most of the array.
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
    return this.times.length - this.head;
  }

  oldest(): number | undefined {
    return this.times[this.head];
  }

  push(at: number): void {
    this.times.push(at);
  }
}
