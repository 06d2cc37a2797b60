// Each key's requests of the last minute, in this process: the SQLite engine's request counter
// (one SQLite profile serves from one machine, and a write per request would cost the default
// store its speed). Postgres shares the window between replicas (postgres.ts).
import type { RequestCounter } from "./serve-state.js";

export class MinuteWindows implements RequestCounter {
  private readonly windows = new Map<string, MinuteWindow>();

  async countRequest(key: string, limit: number, now: number): Promise<number | undefined> {
    let window = this.windows.get(key);
    if (!window) {
      window = new MinuteWindow();
      this.windows.set(key, window);
    }
    if (window.count(now) >= limit) return (window.oldest() ?? now) + 60_000 - now;
    window.push(now);
    return undefined;
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
