// `iris worker [--concurrency N]`: runs batch items from the profile's work queue until SIGTERM
// or Ctrl-C (see @iris/batch's worker.ts), and on a Postgres profile the gateway's cron ticks too
// (one of the workers leads cron and enqueues the due slots: @iris/gateway's cron-worker.ts). The
// first signal lets the running items finish; a second hands them back to the queue; a third ends
// the process at once.
import type { GlobalFlags } from "@iris/cli";
import { loadProfileOrExit } from "@iris/host";

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
  // Either part that cannot go on (its queue unreachable, a bad setting) stops the other.
  const stopOnFailure = (code: number) => {
    if (code !== 0) stop.abort();
    return code;
  };
  try {
    const batch = runWorker({
      ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
      ...(flags.profile ? { profile: flags.profile } : {}),
      stop: stop.signal,
      handBack: handBack.signal,
    }).then(stopOnFailure, (err) => {
      stop.abort();
      throw err;
    });
    const cron = cronPart(flags, o, stop.signal, handBack.signal).then(stopOnFailure, (err) => {
      stop.abort();
      throw err;
    });
    const [a, b] = await Promise.all([batch, cron]);
    return Math.max(a, b);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

async function cronPart(
  flags: GlobalFlags,
  o: { concurrency?: number },
  stop: AbortSignal,
  handBack: AbortSignal,
): Promise<number> {
  const loaded = loadProfileOrExit({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
  });
  if (!loaded.ok) return 0; // the batch part says what is wrong with the profile
  const { cronRunsOnQueue, runCronWorker } = await import("@iris/gateway/cron-worker");
  if (!cronRunsOnQueue(loaded.profile)) return 0;
  return runCronWorker({
    profile: loaded.profile,
    env: process.env,
    stderr: process.stderr,
    concurrency: o.concurrency ?? loaded.profile.config.batch.concurrency,
    cwd: process.cwd(),
    stop,
    handBack,
  });
}
