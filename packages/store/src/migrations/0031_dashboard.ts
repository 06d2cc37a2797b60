// The dashboard (SPEC E1 front ends): usage read by time (the usage and cost page, the overview's
// cost today and this month), each gateway platform's health as the gateway last saw it, and
// the board of questions any front end has asked, which the dashboard answers by request id from another process.
//
// usage_daily is the usage table summed per UTC day, provider, model and session source, kept by
// triggers (one upsert per API call): the usage page and the overview read a few hundred rows
// instead of scanning millions of calls. Splits by session or cron job scan usage_by_time.
export const MIGRATION_0031 = `
CREATE INDEX usage_by_time ON usage(created_at);

CREATE TABLE usage_daily (
  day INTEGER NOT NULL,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  source TEXT NOT NULL,
  calls INTEGER NOT NULL,
  input_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  cache_read_tokens INTEGER NOT NULL,
  cache_write_tokens INTEGER NOT NULL,
  cost_usd REAL NOT NULL,
  PRIMARY KEY (day, provider, model, source)
) WITHOUT ROWID;

INSERT INTO usage_daily
SELECT u.created_at / 86400000, u.provider, u.model, COALESCE(s.source, ''), COUNT(*), SUM(u.input_tokens),
  SUM(u.output_tokens), SUM(u.cache_read_tokens), SUM(u.cache_write_tokens), SUM(u.cost_usd)
FROM usage u LEFT JOIN sessions s ON s.id = u.session_id
GROUP BY 1, 2, 3, 4;

CREATE TRIGGER usage_daily_insert AFTER INSERT ON usage BEGIN
  INSERT INTO usage_daily VALUES (new.created_at / 86400000, new.provider, new.model,
    COALESCE((SELECT source FROM sessions WHERE id = new.session_id), ''), 1, new.input_tokens,
    new.output_tokens, new.cache_read_tokens, new.cache_write_tokens, new.cost_usd)
  ON CONFLICT (day, provider, model, source) DO UPDATE SET calls = calls + 1,
    input_tokens = input_tokens + excluded.input_tokens, output_tokens = output_tokens + excluded.output_tokens,
    cache_read_tokens = cache_read_tokens + excluded.cache_read_tokens,
    cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens, cost_usd = cost_usd + excluded.cost_usd;
END;

-- delete-session.ts removes a session's usage before the session row, so its source is still there.
CREATE TRIGGER usage_daily_delete AFTER DELETE ON usage BEGIN
  UPDATE usage_daily SET calls = calls - 1, input_tokens = input_tokens - old.input_tokens,
    output_tokens = output_tokens - old.output_tokens, cache_read_tokens = cache_read_tokens - old.cache_read_tokens,
    cache_write_tokens = cache_write_tokens - old.cache_write_tokens, cost_usd = cost_usd - old.cost_usd
  WHERE day = old.created_at / 86400000 AND provider = old.provider AND model = old.model
    AND source = COALESCE((SELECT source FROM sessions WHERE id = old.session_id), '');
  DELETE FROM usage_daily WHERE day = old.created_at / 86400000 AND provider = old.provider
    AND model = old.model AND calls <= 0;
END;

CREATE TABLE dashboard_asks (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind = 'approval' OR kind = 'clarify'),
  source TEXT NOT NULL,
  pid INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state = 'waiting' OR state = 'answered' OR state = 'withdrawn'),
  created_at INTEGER NOT NULL,
  answered_at INTEGER,
  answer TEXT,
  answered_by TEXT,
  question TEXT NOT NULL
);
CREATE INDEX dashboard_asks_waiting ON dashboard_asks(created_at) WHERE state = 'waiting';
CREATE INDEX dashboard_asks_by_session ON dashboard_asks(session_id, created_at);

CREATE TABLE gateway_platform_health (
  platform TEXT PRIMARY KEY,
  state TEXT NOT NULL CHECK (state = 'connected' OR state = 'degraded' OR state = 'stopped'),
  pid INTEGER NOT NULL,
  last_error TEXT,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;

-- Steering of the gateway's cron jobs from the dashboard (the gateway's tick reads it): paused,
-- a run asked for now, the next run as the scheduler computed it; and what each run produced.
CREATE TABLE cron_control (
  job_id TEXT PRIMARY KEY,
  paused INTEGER NOT NULL DEFAULT 0,
  run_requested_at INTEGER,
  next_run_at INTEGER
) WITHOUT ROWID;

CREATE TABLE cron_run_results (
  job_id TEXT NOT NULL,
  slot INTEGER NOT NULL,
  session_id TEXT,
  finished_at INTEGER NOT NULL,
  output TEXT,
  PRIMARY KEY (job_id, slot)
) WITHOUT ROWID;

CREATE TABLE dashboard_presence (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  pid INTEGER NOT NULL,
  seen_at INTEGER NOT NULL
);
`;
