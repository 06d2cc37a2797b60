// `iris worker [--concurrency N]`: runs batch items from the profile's work queue until SIGTERM
// or Ctrl-C (see @iris/batch's worker.ts). The first signal lets the running items finish; a
// second hands them back to the queue; a third ends the process at once.
import type { GlobalFlags } from "@iris/cli";

export async function workerCommand(flags: GlobalFlags, o: { concurrency?: number }): Promise<number> {
  const { runWorker } = await import("@iris/batch");
  const stop = new AbortController();
  const handBack = new AbortController();
  let signals = 0;
  const onSignal = () => {
    signals += 1;
    if (signals === 1) stop.abort();
    else if (signals === 2) handBack.abort();
    else process.exit(130);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await runWorker({
      ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
      ...(flags.profile ? { profile: flags.profile } : {}),
      stop: stop.signal,
      handBack: handBack.signal,
    });
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
