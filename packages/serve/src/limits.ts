// Per-key limits of `iris serve`: requests running at once and requests per minute (a sliding
// window). Over either, the answer is 429 with Retry-After, before any work is done.
import { ApiError } from "./errors.js";

export class KeyLimits {
  private readonly running = new Map<string, number>();
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly maxConcurrent: number,
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a slot for `key` or throws a 429; call the returned release exactly once. */
  acquire(key: string): () => void {
    const t = this.now();
    const window = (this.recent.get(key) ?? []).filter((at) => at > t - 60_000);
    if (window.length >= this.perMinute) {
      const wait = Math.max(1, Math.ceil(((window[0] ?? t) + 60_000 - t) / 1000));
      this.recent.set(key, window);
      throw new ApiError(
        429,
        `rate limit: ${this.perMinute} requests per minute for this key`,
        "rate_limit_error",
        "rate_limit_exceeded",
        null,
        { "retry-after": String(wait) },
      );
    }
    const running = this.running.get(key) ?? 0;
    if (running >= this.maxConcurrent)
      throw new ApiError(
        429,
        `concurrency limit: ${this.maxConcurrent} requests at once for this key`,
        "rate_limit_error",
        "concurrency_limit_exceeded",
        null,
        { "retry-after": "1" },
      );
    window.push(t);
    this.recent.set(key, window);
    this.running.set(key, running + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.running.get(key) ?? 1) - 1;
      if (n <= 0) this.running.delete(key);
      else this.running.set(key, n);
    };
  }
}
