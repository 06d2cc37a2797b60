// Cron: jobs in the gateway's cron tables (state/cron-*.ts), as `every 30m`, a cron
// expression, or a one-shot `at 2026-12-24T18:00Z`. A 60-second tick finds each job's latest due
// slot; the tables claim it once (restarts and a second scheduler included). A slot found late (a
// restart, a long stop) is missed: run once or skipped per job. Each run is a fresh session (its
// own agent and the fallback chain), answers nobody can give are refused, and the reply goes to
// the job's chat through the outbox. On a Postgres profile the ticks are queue jobs under one
// leader instead (cron-queue.ts); this file's scheduler is the SQLite default's.

import type { IrisProcess } from "@iris/host";
import type { Logger } from "@iris/llm";
import { Cron } from "croner";
import { type CronJobRow, type CronState, openCronState } from "./state/cron-open.js";

export type Schedule =
  | { kind: "every"; ms: number }
  | { kind: "cron"; expr: string }
  | { kind: "at"; time: number };

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
export const TICK_MS = 60_000;
/** A slot found later than this after its time was missed (the tick itself is 60 s). */
const LATE_MS = 2 * TICK_MS;

export function parseSchedule(text: string): { ok: true; schedule: Schedule } | { ok: false; error: string } {
  const t = text.trim();
  const every = /^every\s+(\d+)\s*([smhd])$/i.exec(t);
  if (every) {
    const ms = Number(every[1]) * (UNITS[(every[2] ?? "m").toLowerCase()] ?? 60_000);
    if (ms < TICK_MS)
      return { ok: false, error: `"${t}": the shortest interval is 1m (the scheduler ticks each minute)` };
    return { ok: true, schedule: { kind: "every", ms } };
  }
  const at = /^at\s+(.+)$/i.exec(t);
  if (at) {
    const time = Date.parse(at[1] ?? "");
    if (Number.isNaN(time))
      return { ok: false, error: `"${t}": not a date and time (use e.g. at 2026-12-24T18:00Z)` };
    return { ok: true, schedule: { kind: "at", time } };
  }
  try {
    new Cron(t, { paused: true }).stop();
    return { ok: true, schedule: { kind: "cron", expr: t } };
  } catch (err) {
    return {
      ok: false,
      error: `"${t}": not "every 30m", "at TIME" or a cron expression (${err instanceof Error ? err.message : err})`,
    };
  }
}

/** The first slot of `job` after `now`; undefined when there is none (a past `at`). */
export function nextSlot(job: CronJobRow, now: number): number | undefined {
  const parsed = parseSchedule(job.schedule);
  if (!parsed.ok) return undefined;
  const s = parsed.schedule;
  if (s.kind === "at") return s.time > now ? s.time : undefined;
  if (s.kind === "every") return job.createdAt + (Math.floor((now - job.createdAt) / s.ms) + 1) * s.ms;
  const cron = new Cron(s.expr, { paused: true });
  const next = cron.nextRun(new Date(now))?.getTime();
  cron.stop();
  return next;
}

/** The latest slot of `job` at or before `now`, after it was created; undefined when none. */
export function latestSlot(job: CronJobRow, now: number): number | undefined {
  const parsed = parseSchedule(job.schedule);
  if (!parsed.ok) return undefined;
  const s = parsed.schedule;
  if (s.kind === "at") return s.time <= now && s.time >= job.createdAt - TICK_MS ? s.time : undefined;
  if (s.kind === "every") {
    const n = Math.floor((now - job.createdAt) / s.ms);
    return n >= 1 ? job.createdAt + n * s.ms : undefined;
  }
  // Walk forward from the last known slot (bounded to a week back) to the last one ≤ now.
  const cron = new Cron(s.expr, { paused: true });
  let from = Math.max(job.lastSlot ?? job.createdAt, job.createdAt, now - 7 * UNITS.d!);
  let found: number | undefined;
  for (let i = 0; i < 20_000; i++) {
    const next = cron.nextRun(new Date(from))?.getTime();
    if (next === undefined || next > now) break;
    found = next;
    from = next;
  }
  cron.stop();
  return found;
}

export type CronDeliver = (job: CronJobRow, slot: number, text: string) => Promise<void>;

/** A slot of a job to act on now: run it, or (`skip`) claim it without running (missed). */
export interface DueSlot {
  slot: number;
  /** "Run now" from the dashboard (runs a paused job too). */
  asked: boolean;
  skip: boolean;
}

/**
 * What a tick does about `job` at `now`: takes a "run now" request, records the next run for the
 * dashboard, and gives the slot to act on, if any (not claimed yet).
 */
export async function dueSlot(state: CronState, job: CronJobRow, now: number): Promise<DueSlot | undefined> {
  const asked = await state.takeRunRequest(job.id);
  await state.setNextRun(job.id, nextSlot(job, now));
  const slot = asked ? now : latestSlot(job, now);
  if (!asked && (await state.control(job.id)).paused) return undefined;
  if (slot === undefined || (!asked && job.lastSlot !== null && slot <= job.lastSlot)) return undefined;
  return { slot, asked, skip: !asked && now - slot > LATE_MS && job.missed === "skip" };
}

/** Runs `job`'s prompt once in a fresh session of `iris` (source `cron`); its answer and session. */
export async function runCronJob(
  iris: IrisProcess,
  cwd: string,
  job: CronJobRow,
): Promise<{ text: string; sessionId: string }> {
  const session = iris.openSession({ source: "cron", cwd });
  try {
    await session.startSession();
    const result = await session.send(job.prompt, {
      // Nobody is there to answer: dangerous commands are refused, questions get a note.
      asks: { approval: "deny", clarify: "(no one can answer: this is a scheduled job; decide yourself)" },
    });
    return { text: result.text, sessionId: session.id };
  } finally {
    await session.close("cron job done");
  }
}

export class CronScheduler {
  private opened: Promise<CronState> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;

  constructor(
    private readonly iris: IrisProcess,
    private readonly cwd: string,
    private readonly deliver: CronDeliver,
    private readonly logger: Logger,
    private readonly tickMs = TICK_MS,
  ) {}

  /** The cron tables (jobs, the dashboard's pause and "run now", run results), opened on first use. */
  state(): Promise<CronState> {
    this.opened ??= openCronState(this.iris);
    return this.opened;
  }

  start(): void {
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.tickMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.ticking;
  }

  /** One pass over every job (the 60-second timer calls this; tests call it with a clock). */
  tick(now = Date.now()): Promise<void> {
    this.ticking ??= this.runDue(now)
      .catch((err) => this.logger.error("cron tick failed", { error: String(err) }))
      .finally(() => {
        this.ticking = undefined;
      });
    return this.ticking;
  }

  private async runDue(now: number): Promise<void> {
    const state = await this.state();
    for (const job of await state.list()) {
      const due = await dueSlot(state, job, now);
      if (!due) continue;
      if (!(await state.claimSlot(job.id, due.slot, now))) continue; // another scheduler, or a restart, had it
      if (due.skip) {
        this.logger.info("cron slot missed and skipped", { job: job.id, slot: due.slot });
        continue;
      }
      try {
        const run = await runCronJob(this.iris, this.cwd, job);
        await state.recordRun(job.id, due.slot, run.sessionId, run.text);
        await this.deliver(job, due.slot, run.text);
      } catch (err) {
        this.logger.error("cron job failed", { job: job.id, error: String(err) });
      }
    }
  }
}
