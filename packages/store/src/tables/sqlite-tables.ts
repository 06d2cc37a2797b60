// Table sets on the SQLite engine: migrated in one write transaction (the file's write lock makes
// a second process wait, then find the work done), reached through a synchronous port over the
// engine's own connection with a statement cache.
import type { Database } from "../driver.js";
import { StoreError } from "../errors.js";
import { withStatementCache } from "../statement-cache.js";
import {
  checkTableSet,
  type SqliteTables,
  setTooNew,
  TABLE_SET_VERSIONS,
  type TableSet,
  type TableSetVersion,
} from "./table-set.js";

function recordedVersion(db: Database, owner: string): number {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
    .get(TABLE_SET_VERSIONS);
  if (!table) return 0;
  const row = db
    .prepare<{ v: number | null }>(`SELECT MAX(version) AS v FROM ${TABLE_SET_VERSIONS} WHERE owner = ?`)
    .get(owner);
  return row?.v ?? 0;
}

export function sqliteTablesVersion(db: Database, set: TableSet): TableSetVersion {
  return { version: recordedVersion(db, set.owner), latest: checkTableSet(set) };
}

/** Applies what `set` lacks (nothing when it is current); `path` names the file in errors. */
export function migrateSqliteTables(db: Database, set: TableSet, path: string, readonly: boolean): void {
  const latest = checkTableSet(set);
  const seen = recordedVersion(db, set.owner);
  if (seen > latest) throw setTooNew(set, seen, latest, path);
  if (seen === latest) return;
  if (readonly)
    throw new StoreError(
      "db_needs_upgrade",
      `${path} needs ${set.owner}'s tables brought to version ${latest}, which needs write access`,
    );
  db.transaction(() => {
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${TABLE_SET_VERSIONS} (owner TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL, applied_at INTEGER NOT NULL, PRIMARY KEY (owner, version))`,
    );
    // Read again under the write lock: another process may have migrated meanwhile.
    const current = recordedVersion(db, set.owner);
    const record = db.prepare(
      `INSERT INTO ${TABLE_SET_VERSIONS} (owner, version, name, applied_at) VALUES (?, ?, ?, ?)`,
    );
    for (const m of set.sqlite) {
      if (m.version <= current) continue;
      try {
        db.exec(m.sql);
      } catch (err) {
        throw new StoreError(
          "migration_failed",
          `${set.owner}'s migration ${m.version} (${m.name}) failed on ${path} (nothing was changed): ${(err as Error).message}`,
        );
      }
      record.run(set.owner, m.version, m.name, Date.now());
    }
  }).immediate();
}

/** The port over the engine's connection. */
export function sqliteTables(db: Database): SqliteTables {
  const cached = withStatementCache(db);
  return {
    dialect: "sqlite",
    all: <Row>(sql: string, ...params: unknown[]) => cached.prepare<Row>(sql).all(...params),
    get: <Row>(sql: string, ...params: unknown[]) => cached.prepare<Row>(sql).get(...params),
    run: (sql, ...params) => ({ changes: cached.prepare(sql).run(...params).changes }),
    transaction: <T>(fn: () => T): T => db.transaction(fn).immediate(),
  };
}
