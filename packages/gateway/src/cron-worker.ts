// The cron part of `iris worker` on a Postgres profile (cron-queue.ts): the process is a candidate
// for cron leader and runs cron ticks from the queue `<queue.name>-cron`, each answer handed to
// the gateway running its platform on `<queue.name>-deliveries-<platform>`. On the SQLite default
// there is nothing to do here: the gateway process runs cron itself.
import { hostname } from "node:os";
import {
  IrisProcess,
  type JobContext,
  type JobQueue,
  openProfileQueue,
  type Profile,
  QueueConfigError,
  QueueUnavailableError,
} from "@iris/host";
import { z } from "zod";
import {
  CRON_QUEUE,
  CronLeader,
  type CronTick,
  type CronTickResult,
  type Delivery,
  deliveryQueue,
  runCronTick,
} from "./cron-queue.js";
import { openCron } from "./state/cron-open.js";

export interface CronWorkerOptions {
  profile: Profile;
  env: Record<string, string | undefined>;
  stderr: NodeJS.WritableStream;
  concurrency: number;
  /** Where cron sessions run (their working directory). */
  cwd: string;
  /** Aborted: stop leading, take no more ticks, let the running ones finish. */
  stop: AbortSignal;
  /** Aborted: hand the running ticks back to the queue now. */
  handBack: AbortSignal;
}

const tickData = z.object({ jobId: z.string().min(1), slot: z.number().int() });

/** Whether cron runs as queue jobs on this profile (its store is shared: Postgres). */
export function cronRunsOnQueue(profile: Profile): boolean {
  return profile.config.store.backend === "postgres";
}

export async function runCronWorker(opts: CronWorkerOptions): Promise<number> {
  const { profile, stderr } = opts;
  const say = (line: string) => stderr.write(`iris worker: ${line}\n`);
  if (!cronRunsOnQueue(profile)) return 0;
  const iris = await IrisProcess.open({ profile, platform: "cron", env: opts.env });
  const closers: (() => Promise<void>)[] = [];
  try {
    const { state, leaderLock } = await openCron(iris);
    if (!leaderLock) return 0;
    const queueOpts = {
      onConnection: (e: { kind: "lost"; error: string } | { kind: "back" }) =>
        say(
          e.kind === "lost"
            ? `the cron queue's server does not answer (${e.error}); retrying`
            : "the cron queue's server answers again",
        ),
      onError: (message: string) => say(`cron queue: ${message}`),
    };
    let ticks: JobQueue<CronTick, CronTickResult>;
    try {
      ticks = await openProfileQueue<CronTick, CronTickResult>(profile, CRON_QUEUE, queueOpts);
      const t = ticks;
      closers.push(() => t.close());
    } catch (err) {
      if (!(err instanceof QueueConfigError || err instanceof QueueUnavailableError)) throw err;
      say(err.message);
      return err instanceof QueueConfigError ? 2 : 1;
    }
    // Each platform's delivery queue, opened when its first answer is handed over.
    const opened = new Map<string, Promise<JobQueue<Delivery, unknown>>>();
    const deliveries = (platform: string) => {
      let q = opened.get(platform);
      if (!q) {
        q = openProfileQueue<Delivery, unknown>(profile, deliveryQueue(platform), queueOpts);
        opened.set(platform, q);
        const open = q;
        closers.push(() =>
          open.then(
            (x) => x.close(),
            () => {},
          ),
        );
      }
      return q;
    };
    const logger = iris.logger.child({ component: "cron" });
    const leader = new CronLeader(state, leaderLock, ticks, logger, (leading) =>
      say(leading ? "leads cron now (enqueues the due slots)" : "no longer leads cron"),
    );
    const worker = await ticks.work(
      (job: JobContext<CronTick>) => {
        const data = tickData.safeParse(job.data);
        if (!data.success) throw new Error(`cron tick ${job.id}: not a cron tick (${data.error.message})`);
        return runCronTick({ iris, cwd: opts.cwd, state, deliveries }, { ...job, data: data.data });
      },
      {
        concurrency: opts.concurrency,
        identity: `${hostname()}/${process.pid}`,
        // A finished tick's job goes (one per slot would pile up): a slot enqueued again after
        // that finds its run recorded and only hands the answer over again (runCronTick).
        onCompleted: (id) => void ticks.remove(id).catch(() => {}),
      },
    );
    leader.start();
    say(`running cron ticks from the ${ticks.backend} queue ${ticks.name}`);
    await aborted(opts.stop);
    await leader.stop();
    const handBack = () => void worker.close("hand-back");
    opts.handBack.addEventListener("abort", handBack, { once: true });
    if (opts.handBack.aborted) handBack();
    await worker.close("finish");
    opts.handBack.removeEventListener("abort", handBack);
    return 0;
  } finally {
    for (const close of closers) await close();
    await iris.close();
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
