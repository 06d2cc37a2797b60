// The gateway's cron tables: the set brought up to date in the profile's store, then the engine
// for the store's dialect; on Postgres also the lock that picks the one cron leader.
import type { TableAccess, TableSet } from "@iris/host";
import { CronLeaderLock } from "./cron-leader.js";
import { PostgresCronState } from "./cron-postgres.js";
import { SqliteCronState } from "./cron-sqlite.js";
import type { CronState } from "./cron-state.js";
import { CRON_TABLES } from "./cron-tables.js";

export type { CronControlRow, CronJobRow, CronRunRow, CronState, NewCronJob } from "./cron-state.js";
export { CRON_TABLES, CronLeaderLock };

/** Whatever opens table sets: the process (IrisProcess), or a store a command opened. */
export interface TableOpener {
  openTables(set: TableSet): Promise<TableAccess>;
}

export interface OpenedCron {
  state: CronState;
  /** Postgres only: the leader's lock (SQLite runs cron in the one gateway process). */
  leaderLock?: CronLeaderLock;
}

export async function openCron(from: TableOpener): Promise<OpenedCron> {
  const tables = await from.openTables(CRON_TABLES);
  return tables.dialect === "sqlite"
    ? { state: new SqliteCronState(tables) }
    : { state: new PostgresCronState(tables), leaderLock: new CronLeaderLock(tables) };
}

export async function openCronState(from: TableOpener): Promise<CronState> {
  return (await openCron(from)).state;
}
