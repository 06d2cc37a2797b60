// Gateway identities that cannot be borrowed (SPEC G1): per-user logins a platform issues itself
// (the web chat's tokens; only a hash of each is kept), and the platform identity (IRC
// `nick!user@host`, account) that an allowlisted name was bound to the first time it spoke.
export const MIGRATION_0025 = `
CREATE TABLE gateway_logins (
  platform TEXT NOT NULL,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (platform, name)
) WITHOUT ROWID;

CREATE TABLE gateway_bindings (
  platform TEXT NOT NULL,
  name TEXT NOT NULL,
  identity TEXT NOT NULL,
  bound_at INTEGER NOT NULL,
  PRIMARY KEY (platform, name)
) WITHOUT ROWID;
`;
