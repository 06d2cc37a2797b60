// A wait that the user can interrupt: a retry backoff must never hold a stop command (SPEC L7).

/** Resolves true after `ms`, or false as soon as `signal` aborts (at once if it already has). */
export function interruptibleSleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve(true);
      },
      Math.max(0, ms),
    );
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
