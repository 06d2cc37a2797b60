// Idempotency-Key (SPEC E3): the first complete answer for the same (API key, endpoint, key) is
// replayed within a TTL; a second request while the first runs waits for it. Entries are never
// shared across API keys. Failed or aborted requests are not remembered, so a retry runs again.
// Recorded answers live in the profile's store (state/): a client that retries because the server
// restarted (the usual reason a retry comes at all) gets the answer, not a second run of the
// turn's tools.
import type { RecordedAnswer, ServeState } from "./state/index.js";

export type { RecordedAnswer };

const MAX_ENTRIES = 10_000;

export class IdempotencyCache {
  /** Requests still running in this process: a second one waits for the first one's answer. */
  private readonly running = new Map<string, Promise<RecordedAnswer | undefined>>();

  constructor(
    private readonly state: ServeState,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  static scope(owner: string, endpoint: string, key: string): string {
    return JSON.stringify([owner, endpoint, key]);
  }

  /** The answer recorded (or being recorded) under `scope`, if any. */
  async lookup(scope: string): Promise<RecordedAnswer | undefined> {
    return this.running.get(scope) ?? this.state.answer(scope, this.now());
  }

  /** Marks `scope` as running; settle the returned function with the answer, or undefined to forget. */
  begin(scope: string): (answer: RecordedAnswer | undefined) => Promise<void> {
    let settle!: (a: RecordedAnswer | undefined) => void;
    this.running.set(
      scope,
      new Promise<RecordedAnswer | undefined>((resolve) => {
        settle = resolve;
      }),
    );
    return async (a) => {
      // A 429 or a busy session's 409 says "not now", not "this is the answer": a retry after
      // Retry-After must run.
      const keep = a !== undefined && a.status < 500 && a.status !== 429 && a.status !== 409;
      if (keep) {
        const now = this.now();
        try {
          await this.state.putAnswer(scope, a, { expiresAt: now + this.ttlMs, max: MAX_ENTRIES, now });
        } catch {
          // Not recorded (the store is busy or closing): a retry runs again, as after a failure.
        }
      }
      this.running.delete(scope);
      settle(keep ? a : undefined);
    };
  }
}
