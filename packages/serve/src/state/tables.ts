// `iris serve`'s table set (packages/store/README.md "Front ends' own tables"): frozen once
// released; add the next version, for both engines.
import type { TableSet } from "@iris/host";

// On SQLite these two tables came with the store's own migration 0017, before serve owned them:
// version 1 adopts them as they are (IF NOT EXISTS), keeping what a profile has stored.
const SQLITE_V1 = `
CREATE TABLE IF NOT EXISTS serve_responses (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  owner TEXT NOT NULL,
  key TEXT NOT NULL,
  history TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS serve_responses_key ON serve_responses(owner, key);
CREATE INDEX IF NOT EXISTS serve_responses_expiry ON serve_responses(expires_at);

CREATE TABLE IF NOT EXISTS serve_idempotency (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  scope TEXT NOT NULL UNIQUE,
  status INTEGER NOT NULL,
  headers TEXT NOT NULL,
  body TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS serve_idempotency_expiry ON serve_idempotency(expires_at);
`;

// The same tables, and the per-key request times replicas share (SQLite counts in memory).
const POSTGRES_V1 = `
CREATE TABLE serve_responses (
  seq BIGSERIAL PRIMARY KEY,
  owner TEXT NOT NULL,
  key TEXT NOT NULL,
  history TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  UNIQUE (owner, key)
);
CREATE INDEX serve_responses_expiry ON serve_responses (expires_at);

CREATE TABLE serve_idempotency (
  seq BIGSERIAL PRIMARY KEY,
  scope TEXT NOT NULL UNIQUE,
  status INTEGER NOT NULL,
  headers TEXT NOT NULL,
  body TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX serve_idempotency_expiry ON serve_idempotency (expires_at);

CREATE TABLE serve_request_times (
  key TEXT NOT NULL,
  at BIGINT NOT NULL
);
CREATE INDEX serve_request_times_by_key ON serve_request_times (key, at);
`;

// Version 2: the events of responses streamed in the background (stream-log.ts), so a client
// that lost its connection resumes on any replica (or after a restart) with Last-Event-ID.
const SQLITE_V2 = `
CREATE TABLE serve_streams (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  done INTEGER NOT NULL DEFAULT 0,
  alive_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX serve_streams_expiry ON serve_streams(expires_at);

CREATE TABLE serve_stream_events (
  stream_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (stream_id, seq)
);
`;

const POSTGRES_V2 = `
CREATE TABLE serve_streams (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  done BOOLEAN NOT NULL DEFAULT false,
  alive_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX serve_streams_expiry ON serve_streams (expires_at);

CREATE TABLE serve_stream_events (
  stream_id TEXT NOT NULL REFERENCES serve_streams (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (stream_id, seq)
);
`;

export const SERVE_TABLES: TableSet = {
  owner: "serve",
  sqlite: [
    { version: 1, name: "responses_idempotency", sql: SQLITE_V1 },
    { version: 2, name: "stream_events", sql: SQLITE_V2 },
  ],
  postgres: [
    { version: 1, name: "responses_idempotency", sql: POSTGRES_V1 },
    { version: 2, name: "stream_events", sql: POSTGRES_V2 },
  ],
};
