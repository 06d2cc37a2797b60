// The gateway's cron tables on SQLite: the profile's state.db through the store's synchronous
// port (statements compiled once); a claim is one transaction under the file's write lock.
import type { SqliteTables } from "@iris/host";
import {
  type CronControlRow,
  type CronJobRow,
  type CronRunRow,
  type CronState,
  type JobRaw,
  jobOf,
  type NewCronJob,
  newJobId,
} from "./cron-state.js";

const ENSURE = "INSERT INTO cron_control (job_id) VALUES (?) ON CONFLICT(job_id) DO NOTHING";
const RUNS =
  "SELECT r.slot, r.fired_at AS firedAt, c.session_id AS sessionId, c.finished_at AS finishedAt, c.output " +
  "FROM gateway_cron_runs r LEFT JOIN cron_run_results c ON c.job_id = r.job_id AND c.slot = r.slot " +
  "WHERE r.job_id = ? ORDER BY r.slot DESC LIMIT ?";

export class SqliteCronState implements CronState {
  constructor(private readonly tables: SqliteTables) {}

  async add(job: NewCronJob, now = Date.now()): Promise<CronJobRow> {
    const id = newJobId();
    this.tables.run(
      "INSERT INTO gateway_cron_jobs (id, schedule, platform, chat_id, missed, created_at, prompt) VALUES (?, ?, ?, ?, ?, ?, ?)",
      id,
      job.schedule,
      job.platform,
      job.chatId,
      job.missed,
      now,
      job.prompt,
    );
    return { ...job, id, createdAt: now, lastSlot: null };
  }

  async list(): Promise<CronJobRow[]> {
    return this.tables.all<JobRaw>("SELECT * FROM gateway_cron_jobs ORDER BY created_at, id").map(jobOf);
  }

  async get(id: string): Promise<CronJobRow | undefined> {
    const r = this.tables.get<JobRaw>("SELECT * FROM gateway_cron_jobs WHERE id = ?", id);
    return r ? jobOf(r) : undefined;
  }

  async remove(id: string): Promise<boolean> {
    return this.tables.transaction(() => {
      this.tables.run("DELETE FROM cron_control WHERE job_id = ?", id);
      return this.tables.run("DELETE FROM gateway_cron_jobs WHERE id = ?", id).changes === 1;
    });
  }

  async claimSlot(jobId: string, slot: number, now = Date.now()): Promise<boolean> {
    return this.tables.transaction(() => {
      const won =
        this.tables.run(
          "INSERT OR IGNORE INTO gateway_cron_runs (job_id, slot, fired_at) VALUES (?, ?, ?)",
          jobId,
          slot,
          now,
        ).changes === 1;
      if (won)
        this.tables.run(
          "UPDATE gateway_cron_jobs SET last_slot = ? WHERE id = ? AND (last_slot IS NULL OR last_slot < ?)",
          slot,
          jobId,
          slot,
        );
      return won;
    });
  }

  async setPaused(jobId: string, paused: boolean): Promise<void> {
    this.tables.transaction(() => {
      this.tables.run(ENSURE, jobId);
      this.tables.run("UPDATE cron_control SET paused = ? WHERE job_id = ?", paused ? 1 : 0, jobId);
    });
  }

  async requestRun(jobId: string, now = Date.now()): Promise<void> {
    this.tables.transaction(() => {
      this.tables.run(ENSURE, jobId);
      this.tables.run("UPDATE cron_control SET run_requested_at = ? WHERE job_id = ?", now, jobId);
    });
  }

  async takeRunRequest(jobId: string): Promise<boolean> {
    return (
      this.tables.run(
        "UPDATE cron_control SET run_requested_at = NULL WHERE job_id = ? AND run_requested_at IS NOT NULL",
        jobId,
      ).changes === 1
    );
  }

  async setNextRun(jobId: string, at: number | undefined): Promise<void> {
    this.tables.transaction(() => {
      this.tables.run(ENSURE, jobId);
      this.tables.run("UPDATE cron_control SET next_run_at = ? WHERE job_id = ?", at ?? null, jobId);
    });
  }

  async control(jobId: string): Promise<CronControlRow> {
    const r = this.tables.get<{
      paused: number;
      run_requested_at: number | null;
      next_run_at: number | null;
    }>("SELECT paused, run_requested_at, next_run_at FROM cron_control WHERE job_id = ?", jobId);
    return {
      jobId,
      paused: r?.paused === 1,
      runRequestedAt: r?.run_requested_at ?? null,
      nextRunAt: r?.next_run_at ?? null,
    };
  }

  async recordRun(
    jobId: string,
    slot: number,
    sessionId: string | undefined,
    output: string,
    now = Date.now(),
  ): Promise<void> {
    this.tables.run(
      "INSERT INTO cron_run_results (job_id, slot, session_id, finished_at, output) VALUES (?, ?, ?, ?, ?) " +
        "ON CONFLICT(job_id, slot) DO UPDATE SET session_id = excluded.session_id, finished_at = excluded.finished_at, output = excluded.output",
      jobId,
      slot,
      sessionId ?? null,
      now,
      output,
    );
  }

  async runs(jobId: string, limit = 20): Promise<CronRunRow[]> {
    return this.tables.all<CronRunRow>(RUNS, jobId, limit);
  }

  async jobsOfSessions(sessionIds: readonly string[]): Promise<Map<string, string>> {
    // The ids as one JSON array: one statement whatever their number.
    const rows = this.tables.all<{ session_id: string; job_id: string }>(
      "SELECT session_id, job_id FROM cron_run_results WHERE session_id IN (SELECT value FROM json_each(?))",
      JSON.stringify(sessionIds),
    );
    return new Map(rows.map((r) => [r.session_id, r.job_id]));
  }
}
