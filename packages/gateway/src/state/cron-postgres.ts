// The gateway's cron tables on Postgres, shared by every process of the profile: a slot is
// claimed by one INSERT … ON CONFLICT DO NOTHING in the transaction that moves the job's last
// slot, so two schedulers (or two leaders in a race) never both win it.
import type { PostgresTables } from "@iris/host";
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

const ENSURE = "INSERT INTO cron_control (job_id) VALUES ($1) ON CONFLICT (job_id) DO NOTHING";

export class PostgresCronState implements CronState {
  constructor(private readonly tables: PostgresTables) {}

  async add(job: NewCronJob, now = Date.now()): Promise<CronJobRow> {
    const id = newJobId();
    await this.tables.query(
      "INSERT INTO gateway_cron_jobs (id, schedule, platform, chat_id, missed, created_at, prompt) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      [id, job.schedule, job.platform, job.chatId, job.missed, now, job.prompt],
    );
    return { ...job, id, createdAt: now, lastSlot: null };
  }

  async list(): Promise<CronJobRow[]> {
    const { rows } = await this.tables.query<JobRaw>(
      "SELECT * FROM gateway_cron_jobs ORDER BY created_at, id",
    );
    return rows.map(jobOf);
  }

  async get(id: string): Promise<CronJobRow | undefined> {
    const { rows } = await this.tables.query<JobRaw>("SELECT * FROM gateway_cron_jobs WHERE id = $1", [id]);
    return rows[0] ? jobOf(rows[0]) : undefined;
  }

  remove(id: string): Promise<boolean> {
    return this.tables.transaction(async (tx) => {
      await tx.query("DELETE FROM cron_control WHERE job_id = $1", [id]);
      return (await tx.query("DELETE FROM gateway_cron_jobs WHERE id = $1", [id])).rowCount === 1;
    });
  }

  claimSlot(jobId: string, slot: number, now = Date.now()): Promise<boolean> {
    return this.tables.transaction(async (tx) => {
      const won =
        (
          await tx.query(
            "INSERT INTO gateway_cron_runs (job_id, slot, fired_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            [jobId, slot, now],
          )
        ).rowCount === 1;
      if (won)
        await tx.query(
          "UPDATE gateway_cron_jobs SET last_slot = $1 WHERE id = $2 AND (last_slot IS NULL OR last_slot < $1)",
          [slot, jobId],
        );
      return won;
    });
  }

  setPaused(jobId: string, paused: boolean): Promise<void> {
    return this.setControl(jobId, "UPDATE cron_control SET paused = $2 WHERE job_id = $1", paused);
  }

  requestRun(jobId: string, now = Date.now()): Promise<void> {
    return this.setControl(jobId, "UPDATE cron_control SET run_requested_at = $2 WHERE job_id = $1", now);
  }

  async takeRunRequest(jobId: string): Promise<boolean> {
    const r = await this.tables.query(
      "UPDATE cron_control SET run_requested_at = NULL WHERE job_id = $1 AND run_requested_at IS NOT NULL",
      [jobId],
    );
    return r.rowCount === 1;
  }

  setNextRun(jobId: string, at: number | undefined): Promise<void> {
    return this.setControl(jobId, "UPDATE cron_control SET next_run_at = $2 WHERE job_id = $1", at ?? null);
  }

  async control(jobId: string): Promise<CronControlRow> {
    const { rows } = await this.tables.query<{
      paused: boolean;
      run_requested_at: number | null;
      next_run_at: number | null;
    }>("SELECT paused, run_requested_at, next_run_at FROM cron_control WHERE job_id = $1", [jobId]);
    const r = rows[0];
    return {
      jobId,
      paused: r?.paused === true,
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
    await this.tables.query(
      "INSERT INTO cron_run_results (job_id, slot, session_id, finished_at, output) VALUES ($1, $2, $3, $4, $5) " +
        "ON CONFLICT (job_id, slot) DO UPDATE SET session_id = excluded.session_id, finished_at = excluded.finished_at, output = excluded.output",
      [jobId, slot, sessionId ?? null, now, output],
    );
  }

  async jobsOfSessions(sessionIds: readonly string[]): Promise<Map<string, string>> {
    const { rows } = await this.tables.query<{ session_id: string; job_id: string }>(
      "SELECT session_id, job_id FROM cron_run_results WHERE session_id = ANY($1::text[])",
      [sessionIds],
    );
    return new Map(rows.map((r) => [r.session_id, r.job_id]));
  }

  async runs(jobId: string, limit = 20): Promise<CronRunRow[]> {
    const { rows } = await this.tables.query<CronRunRow>(
      'SELECT r.slot, r.fired_at AS "firedAt", c.session_id AS "sessionId", c.finished_at AS "finishedAt", c.output ' +
        "FROM gateway_cron_runs r LEFT JOIN cron_run_results c ON c.job_id = r.job_id AND c.slot = r.slot " +
        "WHERE r.job_id = $1 ORDER BY r.slot DESC LIMIT $2",
      [jobId, limit],
    );
    return rows;
  }

  /** Makes the job's control row if it has none, then sets one of its columns. */
  private setControl(jobId: string, update: string, value: unknown): Promise<void> {
    return this.tables.transaction(async (tx) => {
      await tx.query(ENSURE, [jobId]);
      await tx.query(update, [jobId, value]);
    });
  }
}
