// The overall deadline of one model call, across its retries and fallbacks: however the routes
// misbehave, the call ends by then. The turn passes its own budget's end (SPEC L4), so a call
// never outlives the turn's time budget; without one, DEFAULT_CALL_DEADLINE_MS applies.
import { type LlmError, llmError } from "@iris/llm";

/**
 * 10 minutes: longer than any healthy answer (a 32K-token reply at 60 tokens/s takes ~9 min),
 * shorter than a person waits before deciding the tool hangs.
 */
export const DEFAULT_CALL_DEADLINE_MS = 600_000;

export class CallDeadline {
  // One controller for both ends, the caller's abort forwarded to it: AbortSignal.any keeps weak
  // references to its sources, a cost to every model call and to the collector after it.
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  private timedOut = false;
  /** The caller's signal or the deadline, whichever fires first. */
  readonly signal: AbortSignal = this.controller.signal;

  private readonly endsAt: number;
  private readonly callerAborted = () => this.controller.abort(this.callerSignal.reason);

  /** Real time (Date.now), whatever clock a caller injects elsewhere: the timer runs on it too. */
  constructor(
    private readonly callerSignal: AbortSignal,
    readonly totalMs: number,
  ) {
    this.endsAt = Date.now() + totalMs;
    this.timer = setTimeout(
      () => {
        this.timedOut = !this.controller.signal.aborted;
        this.controller.abort();
      },
      Math.max(0, totalMs),
    );
    this.timer.unref?.();
    if (callerSignal.aborted) this.callerAborted();
    else callerSignal.addEventListener("abort", this.callerAborted, { once: true });
  }

  /** Whether the deadline (not the caller) ended the call. */
  get expired(): boolean {
    return this.timedOut;
  }

  /** Whether a wait of `ms` would end after the deadline. */
  wouldPass(ms: number): boolean {
    return Date.now() + ms >= this.endsAt;
  }

  error(): LlmError {
    return llmError(
      "timeout",
      `no answer within the call's deadline of ${Math.round(this.totalMs / 1000)} s (retries and fallbacks included)`,
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.callerSignal.removeEventListener("abort", this.callerAborted);
  }
}
