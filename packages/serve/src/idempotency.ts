// Idempotency-Key (SPEC E3): the first complete answer for the same (API key, endpoint, key) is
// replayed within a TTL; a second request while the first runs waits for it. Entries are never
// shared across API keys. Failed or aborted requests are not remembered, so a retry runs again.
// Recorded answers live in the profile's store (state/): a client that retries because the server
// restarted (the usual reason a retry comes at all) gets the answer, not a second run of the
// turn's tools. On Postgres a request claims its key where every replica sees it: a retry that
// reaches another replica while the first still runs is a 409 with Retry-After (the SDKs retry
// it), never a second run; a claim whose server died lapses after CLAIM_MS.
import { ApiError } from "./errors.js";
import type { RecordedAnswer, ServeState } from "./state/index.js";

export type { RecordedAnswer };

const MAX_ENTRIES = 10_000;
/** How long a claim holds off other replicas without an answer (a turn longer than this is rare). */
export const CLAIM_MS = 10 * 60_000;

/** What a request with an Idempotency-Key does: replay an answer, or run and settle. */
export type Claim =
  | { answer: RecordedAnswer }
  | { settle: (answer: RecordedAnswer | undefined) => Promise<void> };

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

  /** The answer recorded (or being recorded here) under `scope`, or this request's claim on it. */
  async begin(scope: string): Promise<Claim> {
    const here = this.running.get(scope);
    if (here) {
      const answer = await here;
      if (answer) return { answer };
      return this.begin(scope);
    }
    // Marked before the first await: a second request in this process waits for this one.
    let settle!: (a: RecordedAnswer | undefined) => void;
    this.running.set(
      scope,
      new Promise<RecordedAnswer | undefined>((resolve) => {
        settle = resolve;
      }),
    );
    let claimed: Awaited<ReturnType<ServeState["claimAnswer"]>>;
    try {
      const now = this.now();
      claimed = await this.state.claimAnswer(scope, { expiresAt: now + CLAIM_MS, now });
    } catch (err) {
      this.running.delete(scope);
      settle(undefined);
      throw err;
    }
    if (claimed !== "claimed") {
      this.running.delete(scope);
      settle(claimed === "running" ? undefined : claimed);
      if (claimed === "running")
        throw new ApiError(
          409,
          "a request with this Idempotency-Key is still running on another server of this API; retry after a moment for its answer",
          "invalid_request_error",
          "idempotency_key_in_use",
          "Idempotency-Key",
          { "retry-after": "1" },
        );
      return { answer: claimed };
    }
    return {
      settle: async (a) => {
        // A 429 or a busy session's 409 says "not now", not "this is the answer": a retry after
        // Retry-After must run.
        const keep = a !== undefined && a.status < 500 && a.status !== 429 && a.status !== 409;
        try {
          const now = this.now();
          if (keep)
            await this.state.putAnswer(scope, a, { expiresAt: now + this.ttlMs, max: MAX_ENTRIES, now });
          else await this.state.releaseClaim(scope);
        } catch {
          // Not recorded (the store is busy or closing): a retry runs again once the claim lapses.
        }
        this.running.delete(scope);
        settle(keep ? a : undefined);
      },
    };
  }
}
