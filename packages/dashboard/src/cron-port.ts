// What the cron page reads and steers: the gateway's cron jobs, kept in the gateway's own table
// set. The dashboard imports host only, so whoever starts it (the iris command) hands this port in,
// opened on the dashboard's connection (the gateway's openCronState fits it).

export interface DashboardCronJob {
  id: string;
  schedule: string;
  platform: string;
  chatId: string;
  prompt: string;
  lastSlot: number | null;
}

export interface DashboardCronControl {
  paused: boolean;
  runRequestedAt: number | null;
  nextRunAt: number | null;
}

export interface DashboardCronRun {
  slot: number;
  firedAt: number;
  sessionId: string | null;
  finishedAt: number | null;
  output: string | null;
}

export interface DashboardCron {
  list(): Promise<DashboardCronJob[]>;
  control(jobId: string): Promise<DashboardCronControl>;
  /** The gateway's next tick (or the cron leader's) acts on these. */
  setPaused(jobId: string, paused: boolean): Promise<void>;
  requestRun(jobId: string): Promise<void>;
  runs(jobId: string, limit?: number): Promise<DashboardCronRun[]>;
  /** The job whose run made each of these sessions (the usage split by cron job). */
  jobsOfSessions(sessionIds: readonly string[]): Promise<Map<string, string>>;
}
