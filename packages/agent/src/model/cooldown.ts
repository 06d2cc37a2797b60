// Per-route cooldowns (SPEC U4): a route that just failed is not tried again until its cooldown
// ends; the chain then prefers it again (the primary first). With a RouteHealth port the
// cooldowns outlive the process: the next `iris -c` passes over a primary that failed a minute
// ago instead of retrying it for 15 s first.

export const DEFAULT_COOLDOWN_MS = 60_000;
/**
 * How long a store read that found no cooldown stands: a healthy route is read at most once in
 * this time, not twice per model call (an API server makes hundreds a second); another process's
 * new cooldown shows here within it.
 */
export const STORED_READ_FRESH_MS = 1_000;

/** Where cooldowns are kept beyond this process (the store). Failures here never fail a call. */
export interface RouteHealth {
  get(routeKey: string): { untilMs: number } | undefined;
  set(routeKey: string, untilMs: number, reason: string | undefined): void;
  clear(routeKey: string): void;
}

export class CooldownBook {
  private readonly until = new Map<string, number>();
  /** When the store last had no cooldown for a route (STORED_READ_FRESH_MS). */
  private readonly noneStoredAt = new Map<string, number>();

  constructor(
    private readonly cooldownMs: number = DEFAULT_COOLDOWN_MS,
    private readonly now: () => number = Date.now,
    private readonly health?: RouteHealth,
  ) {}

  /** Starts (or restarts) the cooldown of `key` now. */
  mark(key: string, reason?: string): void {
    const end = this.now() + this.cooldownMs;
    this.until.set(key, end);
    this.noneStoredAt.delete(key);
    this.persist((h) => h.set(key, end, reason));
  }

  clear(key: string): void {
    const had = this.until.delete(key);
    // Only a route with a cooldown (ours, or stored by another process) costs a write to clear:
    // the read takes no lock (WAL), so a healthy round never waits for the store's write lock.
    if (had || this.read(key) !== undefined) this.persist((h) => h.clear(key));
  }

  /** Milliseconds of cooldown left; 0 when the route may be used. */
  remainingMs(key: string): number {
    let end = this.until.get(key);
    if (end === undefined && this.health) {
      end = this.read(key);
      if (end !== undefined) this.until.set(key, end);
    }
    if (end === undefined) return 0;
    const left = end - this.now();
    if (left <= 0) {
      this.until.delete(key);
      return 0;
    }
    return left;
  }

  isCooling(key: string): boolean {
    return this.remainingMs(key) > 0;
  }

  private read(key: string): number | undefined {
    if (!this.health) return undefined;
    const at = this.now();
    const none = this.noneStoredAt.get(key);
    if (none !== undefined && at >= none && at - none < STORED_READ_FRESH_MS) return undefined;
    let until: number | undefined;
    try {
      until = this.health.get(key)?.untilMs;
    } catch {
      return undefined; // a read-only or busy store: this process still keeps its own cooldowns
    }
    if (until === undefined) this.noneStoredAt.set(key, at);
    else this.noneStoredAt.delete(key);
    return until;
  }

  private persist(fn: (h: RouteHealth) => void): void {
    if (!this.health) return;
    try {
      fn(this.health);
    } catch {
      // Best effort: the in-memory cooldown still holds for this process.
    }
  }
}

/** The key a route's cooldown is kept under: provider/model, plus the base URL when one is set. */
export function cooldownKey(spec: { provider: string; model: string; baseUrl?: string }): string {
  const url = spec.baseUrl?.replace(/\/+$/, "");
  return url ? `${spec.provider}/${spec.model}@${url}` : `${spec.provider}/${spec.model}`;
}
