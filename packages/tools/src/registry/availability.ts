// Availability checks (T2): an exception, a non-true answer or a hang counts as unavailable.
// Results are cached per check function for a TTL, so a check shared by many tools (one API key
// for a whole toolset) runs once per selection and is re-run once the TTL has passed.

export type AvailabilityCheck = () => boolean | Promise<boolean>;

export interface AvailabilityOptions {
  /** How long a result stays valid. Default 60 s; 0 re-runs every selection. */
  ttlMs?: number;
  /** A check that has not answered by then counts as unavailable. Default 5 s. */
  checkTimeoutMs?: number;
  /** Injectable clock (ms) for tests. */
  now?: () => number;
}

interface Entry {
  at: number;
  result: Promise<boolean>;
}

export class AvailabilityCache {
  private readonly entries = new Map<AvailabilityCheck, Entry>();
  private readonly ttlMs: number;
  private readonly checkTimeoutMs: number;
  private readonly now: () => number;

  constructor(options: AvailabilityOptions = {}) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.checkTimeoutMs = options.checkTimeoutMs ?? 5_000;
    this.now = options.now ?? Date.now;
  }

  /** Starts a selection: within it each check function runs at most once, whatever the TTL. */
  session(): (check: AvailabilityCheck) => Promise<boolean> {
    const seen = new Map<AvailabilityCheck, Promise<boolean>>();
    return (check) => {
      let result = seen.get(check);
      if (!result) {
        result = this.cached(check);
        seen.set(check, result);
      }
      return result;
    };
  }

  clear(): void {
    this.entries.clear();
  }

  private cached(check: AvailabilityCheck): Promise<boolean> {
    const now = this.now();
    const entry = this.entries.get(check);
    if (entry && now - entry.at < this.ttlMs) return entry.result;
    const result = runSafely(check, this.checkTimeoutMs);
    this.entries.set(check, { at: now, result });
    return result;
  }
}

async function runSafely(check: AvailabilityCheck, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
    });
    const answer = await Promise.race([Promise.resolve().then(check), timeout]);
    return answer === true;
  } catch {
    return false;
  } finally {
    if (timer) clearTimeout(timer);
  }
}
