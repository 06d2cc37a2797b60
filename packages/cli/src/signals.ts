// SIGTERM and SIGHUP end a run like Ctrl-C does (issue 12): the turn is aborted and allowed to
// settle — the running command's process group is killed, calls that did not run get their
// "not executed" results, the store is closed — and the process exits 143 (SIGTERM) or 129
// (SIGHUP). A second signal, or a turn that does not settle in time, exits at once.
export const SIGNAL_EXIT_CODES = { SIGTERM: 143, SIGHUP: 129 } as const;
export type EndSignal = keyof typeof SIGNAL_EXIT_CODES;

/** Longest wait for an aborted turn to settle before the process leaves anyway. */
export const SETTLE_MS = 10_000;

export interface SignalExit {
  /** The exit code of the signal received, if any. */
  readonly code: number | undefined;
  /** Stop listening (the run is over). */
  off(): void;
}

/**
 * Calls `stop` on the first SIGTERM/SIGHUP (abort the turn; the caller then returns normally
 * with `code`); `emergency` runs before a forced exit (close the store, best effort).
 */
export function onEndSignals(
  stop: (signal: EndSignal) => void,
  emergency: () => void = () => {},
): SignalExit {
  let code: number | undefined;
  const handlers = (Object.keys(SIGNAL_EXIT_CODES) as EndSignal[]).map((signal) => {
    const handler = () => {
      const exit = SIGNAL_EXIT_CODES[signal];
      if (code !== undefined) {
        emergency();
        process.exit(code);
      }
      code = exit;
      stop(signal);
      setTimeout(() => {
        emergency();
        process.exit(exit);
      }, SETTLE_MS).unref();
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return {
    get code() {
      return code;
    },
    off: () => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    },
  };
}
