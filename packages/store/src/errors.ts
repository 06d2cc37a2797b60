// One error type for everything the store refuses; `code` is what callers branch on.

export type StoreErrorCode =
  | "db_too_new" // the file was written by a newer Iris (schema version above ours)
  | "db_corrupt" // damaged, or not a database at all
  | "db_unopenable" // missing folder, no permission to open
  | "db_readonly" // opened, but writing is refused
  | "db_busy" // another process kept the write lock past the busy timeout
  | "db_io" // disk full or an I/O error; on Postgres: the connection was lost mid-call
  | "db_unreachable" // Postgres: no server answers at the configured address, or it refused the login
  | "db_needs_upgrade" // read-only open of a file an older Iris wrote (it needs a migration)
  | "migration_failed" // a migration would break the file's integrity; nothing was written
  | "not_found" // a session, node or effect id that does not exist
  | "invalid_input" // a malformed argument (wrong kind, missing field, bad parent)
  | "effect_not_checkpointed" // beginEffect without a stored assistant node carrying the call
  | "effect_conflict" // same logical op id re-entered with a different anchor
  | "effect_state" // complete/fail/resolve on an effect that is not in the right state
  | "unsupported"; // a part of the state this engine does not keep (front-end tables on Postgres, for now)

export class StoreError extends Error {
  readonly code: StoreErrorCode;
  constructor(code: StoreErrorCode, message: string) {
    super(message);
    this.name = "StoreError";
    this.code = code;
  }
}

/** SQLite's wait for another connection's lock ran out (SQLITE_BUSY and its extended codes). */
export function isBusyError(err: unknown): boolean {
  return String((err as { code?: unknown } | null)?.code ?? "").startsWith("SQLITE_BUSY");
}
