// One row per API call (SPEC F3) and tool-effect receipts (SPEC D4).
export const MIGRATION_0002 = `
CREATE TABLE usage (
  id INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  task_id TEXT,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  input_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  cache_read_tokens INTEGER NOT NULL,
  cache_write_tokens INTEGER NOT NULL,
  reasoning_tokens INTEGER NOT NULL,
  cost_usd REAL NOT NULL,
  latency_ms INTEGER NOT NULL,
  status TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX usage_by_session ON usage(session_id, id);

CREATE TABLE effects (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  logical_op_id TEXT NOT NULL UNIQUE,
  step INTEGER NOT NULL,
  tool TEXT NOT NULL,
  args_fingerprint TEXT NOT NULL,
  node_id TEXT NOT NULL REFERENCES nodes(id),
  call_id TEXT,
  status TEXT NOT NULL CHECK (status IN ('started', 'completed', 'failed', 'applied', 'not_applied')),
  result TEXT,
  error TEXT,
  evidence TEXT,
  created_at INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE INDEX effects_unresolved ON effects(status) WHERE status = 'started';
`;
