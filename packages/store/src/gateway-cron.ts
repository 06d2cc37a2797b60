// Scheduled jobs of the gateway (migration 0012). A slot is claimed by one INSERT: a job fires
// at most once per slot, whatever restarts or second schedulers happen.
import type { Database } from "./driver.js";
import { newId } from "./ids.js";

export interface CronJobRow {
  id: string;
  schedule: string;
  platform: string;
  chatId: string;
  missed: "run" | "skip";
  createdAt: number;
  lastSlot: number | null;
  prompt: string;
}

interface Raw {
  id: string;
  schedule: string;
  platform: string;
  chat_id: string;
  missed: "run" | "skip";
  created_at: number;
  last_slot: number | null;
  prompt: string;
}

const row = (r: Raw): CronJobRow => ({
  id: r.id,
  schedule: r.schedule,
  platform: r.platform,
  chatId: r.chat_id,
  missed: r.missed,
  createdAt: r.created_at,
  lastSlot: r.last_slot,
  prompt: r.prompt,
});

export class CronState {
  constructor(private readonly db: Database) {}

  add(job: Omit<CronJobRow, "id" | "lastSlot" | "createdAt">, now = Date.now()): CronJobRow {
    const id = newId().slice(-8);
    this.db
      .prepare(
        "INSERT INTO gateway_cron_jobs (id, schedule, platform, chat_id, missed, created_at, prompt) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(id, job.schedule, job.platform, job.chatId, job.missed, now, job.prompt);
    return { ...job, id, createdAt: now, lastSlot: null };
  }
  list(): CronJobRow[] {
    return this.db.prepare<Raw>("SELECT * FROM gateway_cron_jobs ORDER BY created_at").all().map(row);
  }
  remove(id: string): boolean {
    return this.db.prepare("DELETE FROM gateway_cron_jobs WHERE id = ?").run(id).changes === 1;
  }
  /** True for the one caller that claims this slot; the slot becomes the job's last. */
  claimSlot(jobId: string, slot: number, now = Date.now()): boolean {
    const tx = this.db.transaction(() => {
      const won =
        this.db
          .prepare("INSERT OR IGNORE INTO gateway_cron_runs (job_id, slot, fired_at) VALUES (?, ?, ?)")
          .run(jobId, slot, now).changes === 1;
      if (won)
        this.db
          .prepare(
            "UPDATE gateway_cron_jobs SET last_slot = ? WHERE id = ? AND (last_slot IS NULL OR last_slot < ?)",
          )
          .run(slot, jobId, slot);
      return won;
    });
    return tx.immediate();
  }
}
