// What the dashboard's routes share: the profile, its state, the guard and the process's facts.
import type { DashboardData, Profile } from "@iris/host";
import type { DashboardAuth } from "./auth.js";
import type { DashboardCron } from "./cron-port.js";

export interface DashboardDeps {
  /** Reloaded after a config save. */
  profile: Profile;
  env: Record<string, string | undefined>;
  data: DashboardData;
  /** The gateway's cron jobs (absent: the cron page says it cannot show them). */
  cron?: DashboardCron;
  auth: DashboardAuth;
  /** Host header values accepted (filled in once the port is known). */
  hosts: Set<string>;
  startedAt: number;
  version: string;
}

/** Hono's per-request variables the guard sets. */
export type DashboardEnv = { Variables: { csrf: string } };
