// "waiting for the model (N s)": while a model call sends nothing, the front end is told every
// second after the first few, so a slow or stalled route is visible instead of a frozen screen.
import type { AgentEvents } from "../events.js";

export const WAITING_AFTER_MS = 3_000;

export function watchSilence(
  events: AgentEvents,
  route: { provider: string; model: string },
  afterMs = WAITING_AFTER_MS,
): { touch(): void; stop(): void } {
  let last = Date.now();
  const timer = setInterval(() => {
    const silent = Date.now() - last;
    if (silent >= afterMs)
      events.emit("waiting", {
        seconds: Math.floor(silent / 1000),
        provider: route.provider,
        model: route.model,
      });
  }, 1_000);
  timer.unref?.();
  return {
    touch: () => {
      last = Date.now();
    },
    stop: () => clearInterval(timer),
  };
}
