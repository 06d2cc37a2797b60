// The gateway's cron table set (packages/store/README.md "Front ends' own tables"): frozen once
// released; add the next version, for both engines.
import type { TableSet } from "@iris/host";

// On SQLite these tables came with the store's migrations 0012 (jobs, claimed slots) and 0031
// (the dashboard's control, run results), before the gateway owned them: version 1 adopts them as
// they are (IF NOT EXISTS), keeping every profile's jobs.
const SQLITE_V1 = `
CREATE TABLE IF NOT EXISTS gateway_cron_jobs (
  id TEXT PRIMARY KEY,
  schedule TEXT NOT NULL,
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  missed TEXT NOT NULL CHECK (missed = 'run' OR missed = 'skip'),
  created_at INTEGER NOT NULL,
  last_slot INTEGER,
  prompt TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS gateway_cron_runs (
  job_id TEXT NOT NULL,
  slot INTEGER NOT NULL,
  fired_at INTEGER NOT NULL,
  PRIMARY KEY (job_id, slot)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS cron_control (
  job_id TEXT PRIMARY KEY,
  paused INTEGER NOT NULL DEFAULT 0,
  run_requested_at INTEGER,
  next_run_at INTEGER
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS cron_run_results (
  job_id TEXT NOT NULL,
  slot INTEGER NOT NULL,
  session_id TEXT,
  finished_at INTEGER NOT NULL,
  output TEXT,
  PRIMARY KEY (job_id, slot)
) WITHOUT ROWID;
`;

const POSTGRES_V1 = `
CREATE TABLE gateway_cron_jobs (
  id TEXT PRIMARY KEY,
  schedule TEXT NOT NULL,
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  missed TEXT NOT NULL CHECK (missed = 'run' OR missed = 'skip'),
  created_at BIGINT NOT NULL,
  last_slot BIGINT,
  prompt TEXT NOT NULL
);

CREATE TABLE gateway_cron_runs (
  job_id TEXT NOT NULL,
  slot BIGINT NOT NULL,
  fired_at BIGINT NOT NULL,
  PRIMARY KEY (job_id, slot)
);

CREATE TABLE cron_control (
  job_id TEXT PRIMARY KEY,
  paused BOOLEAN NOT NULL DEFAULT FALSE,
  run_requested_at BIGINT,
  next_run_at BIGINT
);

CREATE TABLE cron_run_results (
  job_id TEXT NOT NULL,
  slot BIGINT NOT NULL,
  session_id TEXT,
  finished_at BIGINT NOT NULL,
  output TEXT,
  PRIMARY KEY (job_id, slot)
);
`;

export const CRON_TABLES: TableSet = {
  owner: "gateway_cron",
  sqlite: [{ version: 1, name: "jobs_runs_control", sql: SQLITE_V1 }],
  postgres: [{ version: 1, name: "jobs_runs_control", sql: POSTGRES_V1 }],
};
