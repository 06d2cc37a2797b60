// `iris worker [--concurrency N] [--profile P]`: runs batch items from the profile's work queue
// (config `queue:`) with the profile's config and keys, until SIGTERM or Ctrl-C. The first signal
// stops taking items and lets the running ones finish; a second one hands them back to the queue
// at once (another worker goes on from their logs). When the queue's server goes away the worker
// says so once, keeps retrying with a growing pause, and says when it is back.
import { hostname } from "node:os";
import { join } from "node:path";
import {
  loadProfileOrExit,
  openProfileQueue,
  QueueConfigError,
  QueueUnavailableError,
  queueSettings,
  redactUrl,
} from "@iris/host";
import { BATCH_QUEUE } from "./queue-job.js";
import type { TrajectoryRow } from "./trajectory.js";
import { WorkerRuns } from "./worker-runs.js";

export interface WorkerOptions {
  concurrency?: number;
  profile?: string;
  env?: Record<string, string | undefined>;
  stderr?: NodeJS.WritableStream;
  /** Aborted: take no more items and finish the running ones. */
  stop: AbortSignal;
  /** Aborted: hand the running items back to the queue now. */
  handBack: AbortSignal;
}

export async function runWorker(opts: WorkerOptions): Promise<number> {
  const stderr = opts.stderr ?? process.stderr;
  const env = opts.env ?? process.env;
  const loaded = loadProfileOrExit({ env, ...(opts.profile ? { profile: opts.profile } : {}) });
  if (!loaded.ok) {
    stderr.write(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  const profile = loaded.profile;
  const concurrency = opts.concurrency ?? profile.config.batch.concurrency;
  const workDir = profile.config.batch.worker_dir ?? join(profile.home.root, "batch-worker");
  let queue: Awaited<ReturnType<typeof openProfileQueue<unknown, TrajectoryRow>>>;
  try {
    queue = await openProfileQueue<unknown, TrajectoryRow>(profile, BATCH_QUEUE, {
      onConnection: (e) =>
        stderr.write(
          e.kind === "lost"
            ? `iris worker: the queue's server does not answer (${e.error}); retrying\n`
            : "iris worker: the queue's server answers again; taking items\n",
        ),
      onError: (message) => stderr.write(`iris worker: queue: ${message}\n`),
    });
  } catch (err) {
    if (err instanceof QueueConfigError || err instanceof QueueUnavailableError) {
      stderr.write(`iris worker: ${err.message}\n`);
      return err instanceof QueueConfigError ? 2 : 1;
    }
    throw err;
  }
  const runs = new WorkerRuns(profile, env, workDir);
  try {
    const worker = await queue.work((job) => runs.run(job), {
      concurrency,
      identity: `${hostname()}/${process.pid}`,
      onCompleted: (id) => runs.completed(id),
    });
    const { url } = queueSettings(profile);
    stderr.write(
      `iris worker: running batch items from the ${queue.backend} queue ${queue.name} at ${redactUrl(url ?? "")}, ${concurrency} at once\n`,
    );
    await aborted(opts.stop);
    stderr.write(
      `iris worker: stopping; ${worker.running} running item(s) finish first (signal again to hand them back to the queue)\n`,
    );
    const handBack = () => {
      stderr.write(`iris worker: handing ${worker.running} running item(s) back to the queue\n`);
      void worker.close("hand-back");
    };
    opts.handBack.addEventListener("abort", handBack, { once: true });
    if (opts.handBack.aborted) handBack();
    await worker.close("finish");
    opts.handBack.removeEventListener("abort", handBack);
    return 0;
  } finally {
    await runs.close();
    await queue.close();
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
