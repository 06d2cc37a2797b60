// Per-route cooldowns (SPEC U4): a route that just failed is not tried again until its cooldown
// ends; the chain then prefers it again (the primary first). With a RouteHealth port the
// cooldowns outlive the process: the next `iris -c` passes over a primary that failed a minute
// ago instead of retrying it for 15 s first.

export const DEFAULT_COOLDOWN_MS = 60_000;
/**
 * How long a store read that found no cooldown stands: a healthy route is read at most once in
 * this time, not once per model call (an API server makes hundreds a second); another process's
 * new cooldown shows here within it.
 */
export const STORED_READ_FRESH_MS = 1_000;

/** Where cooldowns are kept beyond this process (the store). Failures here never fail a call. */
export interface RouteHealth {
  get(routeKey: string): Promise<{ untilMs: number } | undefined>;
  set(routeKey: string, untilMs: number, reason: string | undefined): Promise<void>;
  clear(routeKey: string): Promise<void>;
}

/**
 * The cooldowns one process knows. Route choice reads them synchronously; `refresh` loads what
 * other processes stored (once per call, before the route is picked), and writes go to the store
 * in the order they were made, without holding up the call.
 */
export class CooldownBook {
  private readonly until = new Map<string, number>();
  /** The store writes, one after another (a clear never overtakes the mark before it). */
  private writes: Promise<void> = Promise.resolve();
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
    // Only a route with a cooldown (ours, or one `refresh` found stored by another process) costs
    // a write to clear, so a healthy round never waits for the store's write lock.
    if (this.until.delete(key)) this.persist((h) => h.clear(key));
  }

  /**
   * Loads the cooldowns other processes stored for `keys` (one read each, at once; a route found
   * without one is not read again for STORED_READ_FRESH_MS). A store that cannot be read
   * (read-only, busy, gone) leaves this process with its own cooldowns.
   */
  async refresh(keys: readonly string[]): Promise<void> {
    const health = this.health;
    if (!health) return;
    const at = this.now();
    const stale = keys.filter((key) => {
      const none = this.noneStoredAt.get(key);
      return none === undefined || at < none || at - none >= STORED_READ_FRESH_MS;
    });
    await Promise.all(
      stale.map(async (key) => {
        let end: number | undefined;
        try {
          end = (await health.get(key))?.untilMs;
        } catch {
          return;
        }
        if (end === undefined) this.noneStoredAt.set(key, at);
        else this.noneStoredAt.delete(key);
        if (end !== undefined && end > this.now() && end > (this.until.get(key) ?? 0))
          this.until.set(key, end);
      }),
    );
  }

  /** Milliseconds of cooldown left (as far as this process knows); 0 when the route may be used. */
  remainingMs(key: string): number {
    const end = this.until.get(key);
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

  /** Resolves once every write made so far has been tried. */
  settled(): Promise<void> {
    return this.writes;
  }

  private persist(fn: (h: RouteHealth) => Promise<void>): void {
    const health = this.health;
    if (!health) return;
    // Best effort: a failed write leaves the in-memory cooldown holding for this process.
    this.writes = this.writes.then(() => fn(health)).catch(() => {});
  }
}

/** The key a route's cooldown is kept under: provider/model, plus the base URL when one is set. */
export function cooldownKey(spec: { provider: string; model: string; baseUrl?: string }): string {
  const url = spec.baseUrl?.replace(/\/+$/, "");
  return url ? `${spec.provider}/${spec.model}@${url}` : `${spec.provider}/${spec.model}`;
}
