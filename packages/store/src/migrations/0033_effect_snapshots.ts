// File snapshots in the effect receipts (issue 32, `/rewind`): a tool that writes files (write_file,
// patch) has each file's bytes from right before it ran kept with its receipt, so a rewind finds
// in the receipts what a turn changed and what to put back. `content` NULL: there was no file (a
// rewind removes it); `skipped` set: no copy was kept (too large, unreadable), and why. Deleting a
// receipt (a deleted session) deletes its snapshots. A rowid table: the rows hold whole files.
export const MIGRATION_0033 = `
CREATE TABLE effect_snapshots (
  effect_id TEXT NOT NULL REFERENCES effects(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  skipped TEXT,
  content BLOB,
  PRIMARY KEY (effect_id, path)
);
`;
