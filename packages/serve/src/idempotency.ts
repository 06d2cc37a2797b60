// Idempotency-Key (SPEC E3): the first complete answer for the same (API key, endpoint, key) is
// replayed within a TTL; a second request while the first runs waits for it. Entries are never
// shared across API keys. Failed or aborted requests are not remembered, so a retry runs again.

export interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Entry {
  expires: number;
  answer: Promise<RecordedAnswer | undefined>;
}

const MAX_ENTRIES = 10_000;

export class IdempotencyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  static scope(apiKey: string, endpoint: string, key: string): string {
    return JSON.stringify([apiKey, endpoint, key]);
  }

  /** The answer recorded (or being recorded) under `scope`, if any. */
  async lookup(scope: string): Promise<RecordedAnswer | undefined> {
    const e = this.entries.get(scope);
    if (!e) return undefined;
    if (e.expires <= this.now()) {
      this.entries.delete(scope);
      return undefined;
    }
    return e.answer;
  }

  /** Marks `scope` as running; settle the returned function with the answer, or undefined to forget. */
  begin(scope: string): (answer: RecordedAnswer | undefined) => void {
    this.sweep();
    let settle!: (a: RecordedAnswer | undefined) => void;
    const answer = new Promise<RecordedAnswer | undefined>((resolve) => {
      settle = resolve;
    });
    this.entries.set(scope, { expires: Number.POSITIVE_INFINITY, answer });
    return (a) => {
      if (a && a.status < 500)
        this.entries.set(scope, { expires: this.now() + this.ttlMs, answer: Promise.resolve(a) });
      else this.entries.delete(scope);
      settle(a);
    };
  }

  private sweep(): void {
    const t = this.now();
    for (const [k, e] of this.entries) if (e.expires <= t) this.entries.delete(k);
    // Bounded: the oldest entries go first (a Map iterates in insertion order).
    while (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
