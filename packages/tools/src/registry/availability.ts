// Availability checks (T2): an exception, a non-true answer or a hang counts as unavailable.
// Results are cached per check function for a TTL, so a check shared by many tools (one API key
// for a whole toolset) runs once per selection and is re-run once the TTL has passed. A check may
// answer with a string instead of false: the reason the tool is not offered (`iris tools` shows it).
import type { ToolEnvironment } from "../environment.js";

export type AvailabilityCheck = (env: ToolEnvironment) => boolean | string | Promise<boolean | string>;

/** A check's answer: offered, or not and why. */
export interface Availability {
  ok: boolean;
  reason?: string;
}

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
  result: Promise<Availability>;
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
  session(env: ToolEnvironment): (check: AvailabilityCheck) => Promise<Availability> {
    const seen = new Map<AvailabilityCheck, Promise<Availability>>();
    return (check) => {
      let result = seen.get(check);
      if (!result) {
        result = this.cached(check, env);
        seen.set(check, result);
      }
      return result;
    };
  }

  clear(): void {
    this.entries.clear();
  }

  private cached(check: AvailabilityCheck, env: ToolEnvironment): Promise<Availability> {
    const now = this.now();
    const entry = this.entries.get(check);
    if (entry && now - entry.at < this.ttlMs) return entry.result;
    const result = runSafely(check, env, this.checkTimeoutMs);
    this.entries.set(check, { at: now, result });
    return result;
  }
}

async function runSafely(
  check: AvailabilityCheck,
  env: ToolEnvironment,
  timeoutMs: number,
): Promise<Availability> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`its check did not answer within ${timeoutMs} ms`), timeoutMs);
      timer.unref();
    });
    const answer = await Promise.race([Promise.resolve().then(() => check(env)), timeout]);
    if (answer === true) return { ok: true };
    return { ok: false, reason: typeof answer === "string" && answer !== "" ? answer : "its check said no" };
  } catch (err) {
    return { ok: false, reason: `its check failed: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    if (timer) clearTimeout(timer);
  }
}
