// The session look-up (SPEC D1): a session is named by its full id, a unique prefix, or its short
// id (the random last 8 characters of the UUID v7, or any tail of 6+ of them). The last 6
// characters get their own index, so a look-up by a tail reads an index entry instead of scanning
// every session; a prefix reads the primary key's range, a split's child sessions_by_parent.
export const MIGRATION_0024 = `
CREATE INDEX sessions_by_short_id ON sessions(substr(id, -6));
`;
