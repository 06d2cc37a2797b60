// The gateway's table set (packages/store/README.md "Front ends' own tables"): frozen once
// released; add the next version, for both engines. The cron jobs (gateway_cron_*) are not here:
// they still live in the store.
import type { TableSet } from "@iris/host";

// On SQLite these tables came with the store's own migrations 0012 and 0025, before the gateway
// owned them: version 1 adopts them as they are (IF NOT EXISTS), keeping what a profile has stored.
const SQLITE_V1 = `
CREATE TABLE IF NOT EXISTS gateway_chats (
  chat_key TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS gateway_inbound (
  platform TEXT NOT NULL,
  message_id TEXT NOT NULL,
  chat_key TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  thread_id TEXT,
  state TEXT NOT NULL CHECK (state = 'received' OR state = 'done' OR state = 'reported'),
  received_at INTEGER NOT NULL,
  PRIMARY KEY (platform, message_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS gateway_inbound_open ON gateway_inbound(state) WHERE state = 'received';

CREATE TABLE IF NOT EXISTS gateway_outbox (
  logical_key TEXT PRIMARY KEY,
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  thread_id TEXT,
  state TEXT NOT NULL CHECK (state = 'pending' OR state = 'sent' OR state = 'uncertain'),
  created_at INTEGER NOT NULL,
  sent_at INTEGER,
  text TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS gateway_outbox_pending ON gateway_outbox(state) WHERE state = 'pending';

CREATE TABLE IF NOT EXISTS gateway_pairing (
  code TEXT PRIMARY KEY,
  platform TEXT NOT NULL,
  user_id TEXT NOT NULL,
  user_name TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS gateway_pairing_user ON gateway_pairing(platform, user_id);

CREATE TABLE IF NOT EXISTS gateway_approved (
  platform TEXT NOT NULL,
  user_id TEXT NOT NULL,
  user_name TEXT NOT NULL,
  approved_at INTEGER NOT NULL,
  PRIMARY KEY (platform, user_id)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS gateway_pairing_failures (
  at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS gateway_logins (
  platform TEXT NOT NULL,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (platform, name)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS gateway_bindings (
  platform TEXT NOT NULL,
  name TEXT NOT NULL,
  identity TEXT NOT NULL,
  bound_at INTEGER NOT NULL,
  PRIMARY KEY (platform, name)
) WITHOUT ROWID;
`;

// The same tables on Postgres, shared by every gateway process of the profile. An inbound message
// and a reply part name the process that claimed them (`owner`, held as an advisory lock while it
// lives): only the owner settles them, or a process that finds the owner dead and adopts them.
const POSTGRES_V1 = `
CREATE TABLE gateway_chats (
  chat_key TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX gateway_chats_session ON gateway_chats (session_id);

CREATE TABLE gateway_inbound (
  platform TEXT NOT NULL,
  message_id TEXT NOT NULL,
  chat_key TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  thread_id TEXT,
  state TEXT NOT NULL CHECK (state IN ('received', 'done', 'reported')),
  received_at BIGINT NOT NULL,
  owner TEXT NOT NULL,
  PRIMARY KEY (platform, message_id)
);
CREATE INDEX gateway_inbound_open ON gateway_inbound (platform, owner, received_at) WHERE state = 'received';

CREATE TABLE gateway_outbox (
  logical_key TEXT PRIMARY KEY,
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  thread_id TEXT,
  state TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'uncertain')),
  created_at BIGINT NOT NULL,
  sent_at BIGINT,
  text TEXT NOT NULL,
  owner TEXT NOT NULL
);
CREATE INDEX gateway_outbox_pending ON gateway_outbox (platform, owner, created_at) WHERE state = 'pending';

CREATE TABLE gateway_pairing (
  code TEXT PRIMARY KEY,
  platform TEXT NOT NULL,
  user_id TEXT NOT NULL,
  user_name TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  UNIQUE (platform, user_id)
);

CREATE TABLE gateway_approved (
  platform TEXT NOT NULL,
  user_id TEXT NOT NULL,
  user_name TEXT NOT NULL,
  approved_at BIGINT NOT NULL,
  PRIMARY KEY (platform, user_id)
);

CREATE TABLE gateway_pairing_failures (
  at BIGINT NOT NULL
);

CREATE TABLE gateway_logins (
  platform TEXT NOT NULL,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (platform, name)
);

CREATE TABLE gateway_bindings (
  platform TEXT NOT NULL,
  name TEXT NOT NULL,
  identity TEXT NOT NULL,
  bound_at BIGINT NOT NULL,
  PRIMARY KEY (platform, name)
);
`;

export const GATEWAY_TABLES: TableSet = {
  owner: "gateway",
  sqlite: [{ version: 1, name: "chats_outbox_pairing_identities", sql: SQLITE_V1 }],
  postgres: [{ version: 1, name: "chats_outbox_pairing_identities", sql: POSTGRES_V1 }],
};
