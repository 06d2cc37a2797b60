// The messaging gateway's durable state (SPEC G1, G3, U3): which chat maps to which session,
// which platform messages were seen (inbound dedupe across restarts), the outbox of replies
// (recorded before a send, marked after), and DM pairing codes and approved users.
export const MIGRATION_0012 = `
CREATE TABLE gateway_chats (
  chat_key TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE gateway_inbound (
  platform TEXT NOT NULL,
  message_id TEXT NOT NULL,
  chat_key TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  thread_id TEXT,
  state TEXT NOT NULL CHECK (state = 'received' OR state = 'done' OR state = 'reported'),
  received_at INTEGER NOT NULL,
  PRIMARY KEY (platform, message_id)
) WITHOUT ROWID;
CREATE INDEX gateway_inbound_open ON gateway_inbound(state) WHERE state = 'received';

CREATE TABLE gateway_outbox (
  logical_key TEXT PRIMARY KEY,
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  thread_id TEXT,
  state TEXT NOT NULL CHECK (state = 'pending' OR state = 'sent' OR state = 'uncertain'),
  created_at INTEGER NOT NULL,
  sent_at INTEGER,
  text TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX gateway_outbox_pending ON gateway_outbox(state) WHERE state = 'pending';

CREATE TABLE gateway_pairing (
  code TEXT PRIMARY KEY,
  platform TEXT NOT NULL,
  user_id TEXT NOT NULL,
  user_name TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX gateway_pairing_user ON gateway_pairing(platform, user_id);

CREATE TABLE gateway_approved (
  platform TEXT NOT NULL,
  user_id TEXT NOT NULL,
  user_name TEXT NOT NULL,
  approved_at INTEGER NOT NULL,
  PRIMARY KEY (platform, user_id)
) WITHOUT ROWID;

CREATE TABLE gateway_pairing_failures (
  at INTEGER NOT NULL
);

CREATE TABLE gateway_cron_jobs (
  id TEXT PRIMARY KEY,
  schedule TEXT NOT NULL,
  platform TEXT NOT NULL,
  chat_id TEXT NOT NULL,
  missed TEXT NOT NULL CHECK (missed = 'run' OR missed = 'skip'),
  created_at INTEGER NOT NULL,
  last_slot INTEGER,
  prompt TEXT NOT NULL
);

CREATE TABLE gateway_cron_runs (
  job_id TEXT NOT NULL,
  slot INTEGER NOT NULL,
  fired_at INTEGER NOT NULL,
  PRIMARY KEY (job_id, slot)
) WITHOUT ROWID;
`;
