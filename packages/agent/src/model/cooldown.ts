// Per-route cooldowns (SPEC U4): a route that just failed is not tried again until its cooldown
// ends; the chain then prefers it again (the primary first).

export const DEFAULT_COOLDOWN_MS = 60_000;

export class CooldownBook {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly cooldownMs: number = DEFAULT_COOLDOWN_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts (or restarts) the cooldown of `key` now. */
  mark(key: string): void {
    this.until.set(key, this.now() + this.cooldownMs);
  }

  clear(key: string): void {
    this.until.delete(key);
  }

  /** Milliseconds of cooldown left; 0 when the route may be used. */
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
}
