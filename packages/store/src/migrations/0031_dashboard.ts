// The dashboard (SPEC E1 front ends): usage read by time (the usage and cost page, the overview's
// cost today and this month), each gateway platform's health as the gateway last saw it, and
// the board of questions any front end has asked, which the dashboard answers by request id from another process.
export const MIGRATION_0031 = `
CREATE INDEX usage_by_time ON usage(created_at);

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

CREATE TABLE dashboard_presence (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  pid INTEGER NOT NULL,
  seen_at INTEGER NOT NULL
);
`;
