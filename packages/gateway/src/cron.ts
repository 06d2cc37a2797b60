// Cron (issue 19 §5): jobs in the store, as `every 30m`, a cron expression, or a one-shot
// `at 2026-12-24T18:00Z`. A 60-second tick finds each job's latest due slot; the store claims it
// once (restarts and a second scheduler included). A slot found late (a restart, a long stop)
// is missed: run once or skipped per job. Each run is a fresh session (its own agent and the
// fallback chain), answers nobody can give are refused, and the reply goes to the job's chat
// through the outbox.

import type { CronControl, CronJobRow, CronState, IrisProcess } from "@iris/host";
import type { Logger } from "@iris/llm";
import { Cron } from "croner";

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

export class CronScheduler {
  readonly state: CronState;
  /** Pause, resume and "run now" from the dashboard; run results for its history. */
  readonly control: CronControl;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;

  constructor(
    private readonly iris: IrisProcess,
    private readonly cwd: string,
    private readonly deliver: CronDeliver,
    private readonly logger: Logger,
    private readonly tickMs = TICK_MS,
  ) {
    this.state = iris.cronState;
    this.control = iris.cronControl;
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
    this.ticking ??= this.runDue(now).finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private async runDue(now: number): Promise<void> {
    for (const job of await this.state.list()) {
      const asked = await this.control.takeRunRequest(job.id); // "run now" runs a paused job too
      await this.control.setNextRun(job.id, nextSlot(job, now));
      const due = latestSlot(job, now);
      const slot = asked ? now : due;
      if (!asked && (await this.control.get(job.id)).paused) continue;
      if (slot === undefined || (!asked && job.lastSlot !== null && slot <= job.lastSlot)) continue;
      if (!(await this.state.claimSlot(job.id, slot, now))) continue; // another scheduler, or a restart, had it
      if (!asked && now - slot > LATE_MS && job.missed === "skip") {
        this.logger.info("cron slot missed and skipped", { job: job.id, slot });
        continue;
      }
      try {
        const run = await this.runJob(job);
        await this.control.recordRun(job.id, slot, run.sessionId, run.text);
        await this.deliver(job, slot, run.text);
      } catch (err) {
        this.logger.error("cron job failed", { job: job.id, error: String(err) });
      }
    }
  }

  private async runJob(job: CronJobRow): Promise<{ text: string; sessionId: string }> {
    const session = this.iris.openSession({ source: "cron", cwd: this.cwd });
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
}
