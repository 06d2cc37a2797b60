// Schema versioning: read the version without writing, refuse a newer file, apply what is missing.
import type { Database } from "./driver.js";
import { StoreError } from "./errors.js";
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from "./migrations/index.js";

/** The schema version recorded in the file; 0 for a new or pre-versioning file. Reads only. */
export function schemaVersion(db: Database): number {
  const table = db
    .prepare<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'",
    )
    .get();
  if (!table) return 0;
  const row = db.prepare<{ v: number | null }>("SELECT MAX(version) AS v FROM schema_version").get();
  return row?.v ?? 0;
}

/** Throws before anything is written when the file comes from a newer Iris. */
export function assertNotNewer(db: Database, path: string): void {
  const found = schemaVersion(db);
  if (found > LATEST_SCHEMA_VERSION) {
    throw new StoreError(
      "db_too_new",
      `database ${path} has schema version ${found}, but this Iris supports up to version ` +
        `${LATEST_SCHEMA_VERSION}; upgrade Iris to open it (the file was not modified)`,
    );
  }
}

/**
 * Applies pending migrations up to `target` in one write transaction. The version is re-read
 * under the write lock, so two processes opening a new file at once migrate it once. Foreign
 * keys are off meanwhile, as SQLite's procedure for rebuilding a table asks (a DROP TABLE would
 * otherwise check every row), and are checked as a whole before the transaction commits.
 */
export function migrate(db: Database, target: number = LATEST_SCHEMA_VERSION): number {
  const foreignKeys = db.pragma("foreign_keys", { simple: true });
  db.pragma("foreign_keys = OFF");
  try {
    return migrateInTransaction(db, target);
  } finally {
    db.pragma(`foreign_keys = ${foreignKeys ? "ON" : "OFF"}`);
  }
}

function migrateInTransaction(db: Database, target: number): number {
  const run = db.transaction(() => {
    db.exec(
      "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
    );
    const current = schemaVersion(db);
    const record = db.prepare("INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)");
    for (const m of MIGRATIONS) {
      if (m.version <= current || m.version > target) continue;
      db.exec(m.sql);
      record.run(m.version, m.name, Date.now());
    }
    const applied = MIGRATIONS.some((m) => m.version > current && m.version <= target);
    const broken = applied ? (db.pragma("foreign_key_check") as { table: string; parent: string }[]) : [];
    if (broken.length > 0) {
      const first = broken[0] as { table: string; parent: string };
      throw new StoreError(
        "migration_failed",
        `migrating to version ${target} would leave ${broken.length} rows pointing at missing rows ` +
          `(first: ${first.table} -> ${first.parent}); the file was not modified`,
      );
    }
    return schemaVersion(db);
  });
  return run.immediate();
}
