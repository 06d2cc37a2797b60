// Cron on a Postgres profile ("cron ticks are jobs with id cron:<job>:<slot> under one
// leader"). Every `iris worker` is a candidate; the one holding the leader lock (an advisory lock:
// state/cron-leader.ts) wakes at each job's next slot (or each minute, for new jobs and "run
// now"), enqueues each due slot as the queue job `cron:<job>:<slot>` and then claims it. The
// queue ignores an id it holds already, so two leaders in a race, or a leader that died between
// the two steps, still run a slot once. Any worker runs the tick (a fresh session, as in the
// gateway), records the run, and hands the answer to the gateway as a delivery job keyed by the
// same logical id; the gateway's outbox sends it once.
import type { IrisProcess, JobContext, JobQueue } from "@iris/host";
import type { Logger } from "@iris/llm";
import { dueSlot, nextSlot, runCronJob, TICK_MS } from "./cron.js";
import type { CronLeaderLock, CronState } from "./state/cron-open.js";

/** What the leader needs of its lock (state/cron-leader.ts). */
export type LeaderLock = Pick<CronLeaderLock, "lead" | "release">;

/** The queue of cron ticks is `<queue.name>-cron`. */
export const CRON_QUEUE = "cron";
/** A platform's answers for the gateway wait on `<queue.name>-deliveries-<platform>`. */
export const deliveryQueue = (platform: string): string => `deliveries-${platform}`;

export interface CronTick {
  jobId: string;
  slot: number;
}

export interface CronTickResult {
  /** False: the job was removed before its tick ran, or the run was recorded before (a retry). */
  ran: boolean;
  sessionId?: string;
}

/** One message for the gateway to send through its outbox (the job's id is its logical key). */
export interface Delivery {
  platform: string;
  chatId: string;
  text: string;
}

export const cronJobId = (jobId: string, slot: number): string => `cron:${jobId}:${slot}`;

/** How often a process that does not lead asks for the lock (a dead leader's place is free at once). */
const FOLLOW_MS = 1000;

export class CronLeader {
  private stopped = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  /** Whether this process led at its last look (told to `onLead` when it changes). */
  leading = false;

  constructor(
    private readonly state: CronState,
    private readonly lock: LeaderLock,
    private readonly ticks: Pick<JobQueue<CronTick, CronTickResult>, "add">,
    private readonly logger: Logger,
    private readonly onLead: (leading: boolean) => void = () => {},
    private readonly tickMs = TICK_MS,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Stops leading (the lock goes to the next candidate). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    await this.lock.release();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let wait = FOLLOW_MS;
      try {
        const leading = await this.lock.lead();
        if (leading !== this.leading) {
          this.leading = leading;
          this.onLead(leading);
        }
        if (leading) wait = await this.enqueueDue(Date.now());
      } catch (err) {
        this.logger.error("cron leader tick failed", { error: String(err) });
      }
      if (this.stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** Enqueues every due slot once; how long until the next one (at most one tick). */
  async enqueueDue(now: number): Promise<number> {
    let next = now + this.tickMs;
    for (const job of await this.state.list()) {
      const due = await dueSlot(this.state, job, now);
      if (due && !due.skip)
        await this.ticks.add(cronJobId(job.id, due.slot), { jobId: job.id, slot: due.slot });
      if (due && (await this.state.claimSlot(job.id, due.slot, now)) && due.skip)
        this.logger.info("cron slot missed and skipped", { job: job.id, slot: due.slot });
      next = Math.min(next, nextSlot(job, now) ?? next);
    }
    return Math.max(10, next - now);
  }
}

/**
 * Runs one tick: the job's prompt in a fresh session of `iris`, its run recorded, its answer
 * handed to the gateway. A retry of a tick whose run was recorded already (its worker died after)
 * hands the recorded answer over again instead of running the job twice.
 */
export async function runCronTick(
  deps: {
    iris: IrisProcess;
    cwd: string;
    state: CronState;
    /** The delivery queue of a platform. */
    deliveries: (platform: string) => Promise<Pick<JobQueue<Delivery, unknown>, "add">>;
  },
  tick: JobContext<CronTick>,
): Promise<CronTickResult> {
  const { jobId, slot } = tick.data;
  const job = await deps.state.get(jobId);
  if (!job) return { ran: false };
  const recorded = (await deps.state.runs(jobId, 100)).find((r) => r.slot === slot && r.finishedAt !== null);
  let text = recorded?.output ?? "";
  let sessionId = recorded?.sessionId ?? undefined;
  if (!recorded) {
    const run = await runCronJob(deps.iris, deps.cwd, job);
    await deps.state.recordRun(jobId, slot, run.sessionId, run.text);
    text = run.text;
    sessionId = run.sessionId;
  }
  const queue = await deps.deliveries(job.platform);
  await queue.add(cronJobId(jobId, slot), { platform: job.platform, chatId: job.chatId, text });
  return { ran: !recorded, ...(sessionId ? { sessionId } : {}) };
}
