// `iris serve`'s state that must outlive a restart (SPEC E3): the conversation after each
// Responses API response (what `previous_response_id` and `conversation` continue) and the answers
// recorded under an Idempotency-Key. Both are scoped to an API key, bounded and expiring.
export const MIGRATION_0017 = `
CREATE TABLE serve_responses (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  owner TEXT NOT NULL,
  key TEXT NOT NULL,
  history TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX serve_responses_key ON serve_responses(owner, key);
CREATE INDEX serve_responses_expiry ON serve_responses(expires_at);

CREATE TABLE serve_idempotency (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  scope TEXT NOT NULL UNIQUE,
  status INTEGER NOT NULL,
  headers TEXT NOT NULL,
  body TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX serve_idempotency_expiry ON serve_idempotency(expires_at);
`;
