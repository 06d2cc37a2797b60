// The Postgres engine's numbered migrations (frozen once released: never edit one, add the next)
// and the step that applies them. Several processes may start at once against an empty database:
// each takes the schema's advisory lock first, so exactly one migrates and the others find the
// work done. `TRGM` is the schema pg_trgm lives in (an extension is installed once per database).
import { StoreError } from "../errors.js";
import type { Pool, PoolClient } from "./pool.js";

interface PgMigration {
  version: number;
  name: string;
  sql: (trgm: string) => string;
}

export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    name: "conversations",
    sql: (trgm) => `
CREATE TABLE sessions (
  -- "C": ids compare byte by byte, so a prefix is one range of the primary key whatever the locale.
  id TEXT COLLATE "C" PRIMARY KEY,
  seq BIGSERIAL NOT NULL UNIQUE,
  title TEXT,
  source TEXT NOT NULL,
  cwd TEXT,
  parent_session_id TEXT REFERENCES sessions(id),
  system_prompt TEXT,
  model TEXT,
  provider TEXT,
  started_at BIGINT NOT NULL,
  ended_at BIGINT,
  end_reason TEXT,
  active_leaf_id TEXT,
  api_calls BIGINT NOT NULL DEFAULT 0,
  input_tokens BIGINT NOT NULL DEFAULT 0,
  output_tokens BIGINT NOT NULL DEFAULT 0,
  cache_read_tokens BIGINT NOT NULL DEFAULT 0,
  cache_write_tokens BIGINT NOT NULL DEFAULT 0,
  reasoning_tokens BIGINT NOT NULL DEFAULT 0,
  cost_usd DOUBLE PRECISION NOT NULL DEFAULT 0
);
CREATE INDEX sessions_by_start ON sessions (started_at DESC, seq DESC);
CREATE INDEX sessions_by_source ON sessions (source, started_at DESC, seq DESC);
CREATE INDEX sessions_by_parent ON sessions (parent_session_id);
CREATE INDEX sessions_by_tail ON sessions (right(id, 6));

CREATE TABLE nodes (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  parent_id TEXT REFERENCES nodes(id),
  kind TEXT NOT NULL CHECK (kind = 'message' OR kind = 'compaction' OR kind = 'note'),
  role TEXT CHECK (role IS NULL OR role = 'user' OR role = 'assistant' OR role = 'tool'),
  expands_to TEXT REFERENCES nodes(id),
  provider TEXT,
  api_mode TEXT,
  model TEXT,
  token_count INTEGER,
  input_tokens BIGINT,
  output_tokens BIGINT,
  cache_read_tokens BIGINT,
  cache_write_tokens BIGINT,
  reasoning_tokens BIGINT,
  created_at BIGINT NOT NULL,
  search_text TEXT NOT NULL DEFAULT '',
  body_text TEXT,
  payload TEXT
);
CREATE INDEX nodes_by_session ON nodes (session_id, seq);
CREATE INDEX nodes_by_parent ON nodes (parent_id);
CREATE INDEX nodes_by_expands_to ON nodes (expands_to) WHERE expands_to IS NOT NULL;
-- Substrings in any script (Korean, a piece of a word) and words, through one trigram index.
CREATE INDEX nodes_search_trgm ON nodes USING gin (search_text ${trgm}.gin_trgm_ops);

CREATE TABLE usage (
  id BIGSERIAL PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  task_id TEXT,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  input_tokens BIGINT NOT NULL,
  output_tokens BIGINT NOT NULL,
  cache_read_tokens BIGINT NOT NULL,
  cache_write_tokens BIGINT NOT NULL,
  reasoning_tokens BIGINT NOT NULL,
  cost_usd DOUBLE PRECISION NOT NULL,
  latency_ms DOUBLE PRECISION NOT NULL,
  status TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX usage_by_session ON usage (session_id, id);
CREATE INDEX usage_by_time ON usage (created_at);

CREATE TABLE effects (
  id TEXT PRIMARY KEY,
  seq BIGSERIAL NOT NULL UNIQUE,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  logical_op_id TEXT NOT NULL UNIQUE,
  step INTEGER NOT NULL,
  tool TEXT NOT NULL,
  args_fingerprint TEXT NOT NULL,
  node_id TEXT NOT NULL REFERENCES nodes(id),
  call_id TEXT,
  status TEXT NOT NULL CHECK (status = 'started' OR status = 'completed' OR status = 'failed'
    OR status = 'applied' OR status = 'not_applied'),
  error TEXT,
  evidence TEXT,
  created_at BIGINT NOT NULL,
  finished_at BIGINT,
  result TEXT
);
CREATE INDEX effects_unresolved ON effects (created_at, seq) WHERE status = 'started';
CREATE INDEX effects_by_session ON effects (session_id);
CREATE INDEX effects_by_node ON effects (node_id);

CREATE TABLE effect_snapshots (
  effect_id TEXT NOT NULL REFERENCES effects(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  skipped TEXT,
  content BYTEA,
  PRIMARY KEY (effect_id, path)
);

CREATE TABLE session_active_time (
  session_id TEXT PRIMARY KEY REFERENCES sessions(id),
  active_ms BIGINT NOT NULL,
  turns INTEGER NOT NULL
);
CREATE TABLE session_leases (
  session_id TEXT PRIMARY KEY REFERENCES sessions(id),
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  acquired_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE TABLE route_cooldowns (
  route_key TEXT PRIMARY KEY,
  until_ms BIGINT NOT NULL,
  reason TEXT,
  set_at BIGINT NOT NULL
);`,
  },
  {
    version: 2,
    name: "dashboard",
    // What every process shares with the dashboard (SQLite: migrations 0031 and 0032). usage_daily
    // is kept by the usage writes themselves (usage.ts, sessions.ts); rows naming a process carry
    // its host, since a pid means something on its own machine only.
    sql: () => `
CREATE TABLE usage_daily (
  day INTEGER NOT NULL,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  source TEXT NOT NULL,
  calls BIGINT NOT NULL,
  input_tokens BIGINT NOT NULL,
  output_tokens BIGINT NOT NULL,
  cache_read_tokens BIGINT NOT NULL,
  cache_write_tokens BIGINT NOT NULL,
  cost_usd DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (day, provider, model, source)
);
INSERT INTO usage_daily
SELECT u.created_at / 86400000, u.provider, u.model, COALESCE(s.source, ''), COUNT(*), SUM(u.input_tokens),
  SUM(u.output_tokens), SUM(u.cache_read_tokens), SUM(u.cache_write_tokens), SUM(u.cost_usd)
FROM usage u LEFT JOIN sessions s ON s.id = u.session_id
GROUP BY 1, 2, 3, 4;

CREATE TABLE dashboard_asks (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind = 'approval' OR kind = 'clarify'),
  source TEXT NOT NULL,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state = 'waiting' OR state = 'answered' OR state = 'withdrawn'),
  created_at BIGINT NOT NULL,
  answered_at BIGINT,
  answer TEXT,
  answered_by TEXT,
  question TEXT NOT NULL
);
CREATE INDEX dashboard_asks_waiting ON dashboard_asks (created_at) WHERE state = 'waiting';
CREATE INDEX dashboard_asks_by_session ON dashboard_asks (session_id, created_at);

CREATE TABLE dashboard_presence (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  seen_at BIGINT NOT NULL
);

CREATE TABLE gateway_platform_health (
  platform TEXT PRIMARY KEY,
  state TEXT NOT NULL CHECK (state = 'connected' OR state = 'degraded' OR state = 'stopped'),
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  last_error TEXT,
  updated_at BIGINT NOT NULL
);

CREATE TABLE mcp_server_state (
  owner TEXT NOT NULL,
  server TEXT NOT NULL,
  platform TEXT NOT NULL,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  state TEXT NOT NULL,
  transport TEXT NOT NULL,
  tools INTEGER NOT NULL,
  last_error TEXT,
  restarts INTEGER NOT NULL,
  started_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (owner, server)
);

-- The local search backend's pages: terms (the backend's split words, two-character pieces for
-- CJK) searched through a 'simple' text-search vector: no stemming, no stop words, as unicode61.
CREATE TABLE web_pages (
  id BIGSERIAL PRIMARY KEY,
  url TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  text TEXT NOT NULL,
  terms TEXT NOT NULL,
  read_at BIGINT NOT NULL,
  search tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, terms)) STORED
);
CREATE INDEX web_pages_by_read ON web_pages (read_at);
CREATE INDEX web_pages_search ON web_pages USING gin (search);`,
  },
];

export const PG_LATEST_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1]?.version ?? 0;

/** The schema's version (0: not migrated yet), without writing anything. */
export async function pgSchemaVersion(pool: Pool, schema: string): Promise<number> {
  const { rows } = await pool.query<{ v: number | null }>(
    "SELECT CASE WHEN to_regclass($1) IS NULL THEN NULL ELSE 0 END AS v",
    [`${schema}.schema_version`],
  );
  if (rows[0]?.v === null) return 0;
  const found = await pool.query<{ v: number | null }>(
    `SELECT max(version) AS v FROM ${schema}.schema_version`,
  );
  return found.rows[0]?.v ?? 0;
}

/**
 * Brings `schema` up to the newest version under the schema's advisory lock (held on one
 * connection, released with it): safe when several processes start at once. Returns the version.
 */
export function migratePostgres(pool: Pool, schema: string): Promise<number> {
  return underMigrationLock(pool, async (client) => {
    const current = await pgSchemaVersion(pool, schema);
    if (current > PG_LATEST_VERSION)
      throw new StoreError(
        "db_too_new",
        `the Postgres schema ${schema} has version ${current}, but this Iris supports up to ` +
          `${PG_LATEST_VERSION}; upgrade Iris to use it (nothing was changed)`,
      );
    if (current === PG_LATEST_VERSION) return current;
    await client.query("BEGIN");
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query("CREATE EXTENSION IF NOT EXISTS pg_trgm");
      const trgm = await trigramSchema(client);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${schema}.schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`,
      );
      await client.query(`SET LOCAL search_path = ${schema}`);
      for (const m of PG_MIGRATIONS) {
        if (m.version <= current) continue;
        await client.query(m.sql(trgm));
        await client.query("INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)", [
          m.version,
          m.name,
          Date.now(),
        ]);
      }
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      throw new StoreError(
        "migration_failed",
        `migrating the Postgres schema ${schema} failed (nothing was changed): ${(err as Error).message}`,
      );
    }
    return PG_LATEST_VERSION;
  });
}

/**
 * Runs `fn` holding the database's migration lock (an advisory lock on one connection, released
 * with it): one process migrates while the others wait, then find the work done. One lock for the
 * whole database: pg_trgm is installed once for every schema. Front ends' table sets take it too.
 */
export async function underMigrationLock<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('iris-migrate'))");
    try {
      return await fn(client);
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('iris-migrate'))");
    }
  } finally {
    client.release();
  }
}

/** The schema pg_trgm was installed in (its operator classes are named through it). */
async function trigramSchema(client: { query: Pool["query"] }): Promise<string> {
  const { rows } = await client.query<{ schema: string }>(
    "SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'",
  );
  const schema = rows[0]?.schema;
  if (!schema) throw new Error("the pg_trgm extension is not installed (CREATE EXTENSION pg_trgm)");
  return `"${schema.replaceAll('"', '""')}"`;
}
