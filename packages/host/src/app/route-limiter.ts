// One rate limiter per route, shared by every session of a process (SPEC F1, issue 18): a 429 with
// Retry-After on one session's call holds back the next call of *every* session on that route
// until the server's time is up, instead of each session hammering the route until it is told
// off itself. Batch workers, gateway chats and API clients all go through it.
import { interruptibleSleep, type ModelClient } from "@iris/agent";
import { llmError, type Runtime } from "@iris/llm";

/** A server's Retry-After is honoured up to this, like the retry policy does. */
const MAX_PAUSE_MS = 60_000;

export interface RouteLimiterOptions {
  now?: () => number;
  /** Resolves false when aborted. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<boolean>;
}

export interface RoutePause {
  route: string;
  /** How long calls on the route are held back from now. */
  ms: number;
}

export class RouteLimiter {
  private readonly until = new Map<string, number>();
  private readonly listeners = new Set<(pause: RoutePause) => void>();
  private pausesSeen = 0;

  constructor(private readonly opts: RouteLimiterOptions = {}) {}

  /** Waits while `route` is paused. Resolves false when `signal` aborts first. */
  async ready(route: string, signal: AbortSignal): Promise<boolean> {
    for (;;) {
      const left = this.remainingMs(route);
      if (left <= 0) return !signal.aborted;
      const slept = await (this.opts.sleep ?? interruptibleSleep)(left, signal);
      if (!slept) return false;
    }
  }

  /** Holds back calls on `route` for `ms` (a later end wins over an earlier one). */
  pause(route: string, ms: number): void {
    const bounded = Math.min(Math.max(0, ms), MAX_PAUSE_MS);
    const end = this.now() + bounded;
    if ((this.until.get(route) ?? 0) >= end) return;
    this.until.set(route, end);
    this.pausesSeen += 1;
    for (const fn of this.listeners) fn({ route, ms: bounded });
  }

  remainingMs(route: string): number {
    const end = this.until.get(route);
    if (end === undefined) return 0;
    const left = end - this.now();
    if (left <= 0) this.until.delete(route);
    return Math.max(0, left);
  }

  /** How many pauses were started so far (for progress and summaries). */
  get pauses(): number {
    return this.pausesSeen;
  }

  onPause(fn: (pause: RoutePause) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }
}

/** The limiter's key of a route: the endpoint and model a provider's rate limit applies to. */
export function limiterKey(runtime: Runtime): string {
  return `${runtime.provider}/${runtime.model}@${runtime.baseUrl}`;
}

/** `inner` with every attempt waiting for the route's pause, and its 429s pausing the route. */
export function limitedClient(inner: ModelClient, limiter: RouteLimiter, runtime: Runtime): ModelClient {
  const key = limiterKey(runtime);
  return {
    route: () => inner.route(),
    async call(request, opts) {
      if (!(await limiter.ready(key, opts.signal)))
        return { ok: false, error: llmError("aborted", "the request was aborted") };
      const res = await inner.call(request, opts);
      if (!res.ok && res.error.kind === "rate_limit" && res.error.retryAfterMs !== undefined)
        limiter.pause(key, res.error.retryAfterMs);
      return res;
    },
  };
}
