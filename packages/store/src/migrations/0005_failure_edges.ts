// Failure edges (issue 12): what must outlive one process.
// - session_active_time: the time the agent actually worked in a session (sum of turn
//   durations), so the session budget (SPEC L4) no longer counts idle hours.
// - route_cooldowns: a route that failed is passed over until `until_ms`, also by the next
//   process (SPEC U4); keyed by provider/model@base URL, never by a chain position.
// - session_leases: one live turn per session (SPEC D1, H1); a lease names its holder and
//   expires, so a crashed holder never blocks the session for long.
export const MIGRATION_0005 = `
CREATE TABLE session_active_time (
  session_id TEXT PRIMARY KEY REFERENCES sessions(id),
  active_ms INTEGER NOT NULL DEFAULT 0,
  turns INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE route_cooldowns (
  route_key TEXT PRIMARY KEY,
  until_ms INTEGER NOT NULL,
  reason TEXT,
  set_at INTEGER NOT NULL
);

CREATE TABLE session_leases (
  session_id TEXT PRIMARY KEY REFERENCES sessions(id),
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  acquired_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
`;
