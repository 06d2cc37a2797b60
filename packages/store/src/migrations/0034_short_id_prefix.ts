// A short id (the last 8 characters of the UUID v7) may be typed by its first few characters
// (`--resume 9be1` for 9be1c3f0). Indexing the whole short id makes such a prefix one range of
// this index (`substr(id, -8) >= ? AND substr(id, -8) < ?`) instead of a scan of every session.
export const MIGRATION_0034 = `
CREATE INDEX sessions_by_short_id_8 ON sessions(substr(id, -8));
`;
