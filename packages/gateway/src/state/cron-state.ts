// The gateway's cron jobs as every engine keeps them (cron-sqlite.ts, cron-postgres.ts): the jobs,
// each slot claimed once (whatever restarts, second schedulers or two leaders happen), the
// dashboard's hold on a job (pause, "run now", the next run the scheduler computed) and each run's
// session and output.

export interface CronJobRow {
  id: string;
  schedule: string;
  platform: string;
  chatId: string;
  missed: "run" | "skip";
  createdAt: number;
  /** The newest slot claimed; null before the first. */
  lastSlot: number | null;
  prompt: string;
}

/** A job as both engines' tables hold it. */
export interface JobRaw {
  id: string;
  schedule: string;
  platform: string;
  chat_id: string;
  missed: "run" | "skip";
  created_at: number;
  last_slot: number | null;
  prompt: string;
}

export const jobOf = (r: JobRaw): CronJobRow => ({
  id: r.id,
  schedule: r.schedule,
  platform: r.platform,
  chatId: r.chat_id,
  missed: r.missed,
  createdAt: r.created_at,
  lastSlot: r.last_slot,
  prompt: r.prompt,
});

export type NewCronJob = Omit<CronJobRow, "id" | "lastSlot" | "createdAt">;

export interface CronControlRow {
  jobId: string;
  paused: boolean;
  runRequestedAt: number | null;
  nextRunAt: number | null;
}

/** One claimed slot, with what its run left (null while it runs, or when it failed). */
export interface CronRunRow {
  slot: number;
  firedAt: number;
  sessionId: string | null;
  finishedAt: number | null;
  output: string | null;
}

export interface CronState {
  add(job: NewCronJob, now?: number): Promise<CronJobRow>;
  /** Every job, oldest first. */
  list(): Promise<CronJobRow[]>;
  get(id: string): Promise<CronJobRow | undefined>;
  /** Removes the job and its control row; false when there is no such job. */
  remove(id: string): Promise<boolean>;
  /** True for the one caller that claims this slot; the slot becomes the job's last. */
  claimSlot(jobId: string, slot: number, now?: number): Promise<boolean>;

  setPaused(jobId: string, paused: boolean): Promise<void>;
  requestRun(jobId: string, now?: number): Promise<void>;
  /** True once per request: the scheduler that takes it runs the job. */
  takeRunRequest(jobId: string): Promise<boolean>;
  setNextRun(jobId: string, at: number | undefined): Promise<void>;
  /** A job's control (not paused, nothing asked, no next run known when it has no row). */
  control(jobId: string): Promise<CronControlRow>;

  /** What a slot's run produced (written again when a retried run finishes). */
  recordRun(
    jobId: string,
    slot: number,
    sessionId: string | undefined,
    output: string,
    now?: number,
  ): Promise<void>;
  /** The newest claimed slots of a job with what their runs left. */
  runs(jobId: string, limit?: number): Promise<CronRunRow[]>;
  /** The job whose run made each of these sessions (a session no run made is left out): the
   * dashboard's usage split by cron job. */
  jobsOfSessions(sessionIds: readonly string[]): Promise<Map<string, string>>;
}

/** A job's id: 8 hex digits, as the store gave them before. */
export function newJobId(): string {
  return crypto.randomUUID().slice(-8);
}
