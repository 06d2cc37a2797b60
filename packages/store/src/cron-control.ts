// The dashboard's hold on the gateway's cron jobs (migration 0031): pause, resume and "run now"
// are rows the scheduler reads at its next tick (another process); the scheduler records the
// next run it computed and each run's session and output, so the page shows history and cost.
import type { Database } from "./driver.js";
import { type CachedDatabase, withStatementCache } from "./statement-cache.js";

export interface CronControlRow {
  jobId: string;
  paused: boolean;
  runRequestedAt: number | null;
  nextRunAt: number | null;
}

export interface CronRunResultRow {
  slot: number;
  firedAt: number;
  sessionId: string | null;
  finishedAt: number | null;
  output: string | null;
  costUsd: number | null;
}

const ENSURE = "INSERT INTO cron_control (job_id) VALUES (?) ON CONFLICT(job_id) DO NOTHING";

export class CronControl {
  private readonly stmts: CachedDatabase;

  constructor(db: Database) {
    this.stmts = withStatementCache(db);
  }

  setPaused(jobId: string, paused: boolean): void {
    this.stmts.transaction(() => {
      this.stmts.prepare(ENSURE).run(jobId);
      this.stmts.prepare("UPDATE cron_control SET paused = ? WHERE job_id = ?").run(paused ? 1 : 0, jobId);
    })();
  }

  requestRun(jobId: string, now = Date.now()): void {
    this.stmts.transaction(() => {
      this.stmts.prepare(ENSURE).run(jobId);
      this.stmts.prepare("UPDATE cron_control SET run_requested_at = ? WHERE job_id = ?").run(now, jobId);
    })();
  }

  /** True once per request: the scheduler that takes it runs the job. */
  takeRunRequest(jobId: string): boolean {
    return (
      this.stmts
        .prepare(
          "UPDATE cron_control SET run_requested_at = NULL WHERE job_id = ? AND run_requested_at IS NOT NULL",
        )
        .run(jobId).changes === 1
    );
  }

  setNextRun(jobId: string, at: number | undefined): void {
    this.stmts.prepare(ENSURE).run(jobId);
    this.stmts.prepare("UPDATE cron_control SET next_run_at = ? WHERE job_id = ?").run(at ?? null, jobId);
  }

  get(jobId: string): CronControlRow {
    const r = this.stmts
      .prepare<{ paused: number; run_requested_at: number | null; next_run_at: number | null }>(
        "SELECT paused, run_requested_at, next_run_at FROM cron_control WHERE job_id = ?",
      )
      .get(jobId);
    return {
      jobId,
      paused: r?.paused === 1,
      runRequestedAt: r?.run_requested_at ?? null,
      nextRunAt: r?.next_run_at ?? null,
    };
  }

  recordRun(
    jobId: string,
    slot: number,
    sessionId: string | undefined,
    output: string,
    now = Date.now(),
  ): void {
    this.stmts
      .prepare(
        "INSERT INTO cron_run_results (job_id, slot, session_id, finished_at, output) VALUES (?, ?, ?, ?, ?) " +
          "ON CONFLICT(job_id, slot) DO UPDATE SET session_id = excluded.session_id, finished_at = excluded.finished_at, output = excluded.output",
      )
      .run(jobId, slot, sessionId ?? null, now, output);
  }

  /** The newest runs of a job with their output and what their session cost. */
  runs(jobId: string, limit = 20): CronRunResultRow[] {
    return this.stmts
      .prepare<CronRunResultRow>(
        "SELECT r.slot, r.fired_at AS firedAt, c.session_id AS sessionId, c.finished_at AS finishedAt, c.output, " +
          "s.cost_usd AS costUsd FROM gateway_cron_runs r " +
          "LEFT JOIN cron_run_results c ON c.job_id = r.job_id AND c.slot = r.slot " +
          "LEFT JOIN sessions s ON s.id = c.session_id WHERE r.job_id = ? ORDER BY r.slot DESC LIMIT ?",
      )
      .all(jobId, limit);
  }
}
