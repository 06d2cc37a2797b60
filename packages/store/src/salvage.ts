// Recovering a damaged state.db (SPEC D1): the file is kept as it was (with its WAL), and every
// row that can still be read is copied into a fresh database built by the migrations, table by
// table and, where a range of rows sits on a damaged page, row by row. The search index is left
// out and rebuilt from the nodes by the usual catch-up. SQLite's own `.recover` (the sqlite3
// shell) reads even more of a badly damaged file; the kept copy is there for it.
import { copyFileSync, existsSync, renameSync, rmSync } from "node:fs";
import { type Database, openDatabase } from "./driver.js";
import { openSqliteEngine } from "./store.js";

export interface SalvageReport {
  /** Where the damaged file (and its -wal/-shm) was copied before anything else. */
  kept: string;
  /** Rows copied per table. */
  copied: Record<string, number>;
  /** Tables or row ranges that could not be read, with why. */
  lost: string[];
}

const CHUNK = 200;
/** Derived data, rebuilt after the copy (the search index and its watermark). */
// web_pages_fts is rebuilt by its trigger as web_pages is copied.
const REBUILT = /^(nodes_fts|search_index_state|web_pages_fts)/;

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Whether the file reads as a whole (PRAGMA quick_check); the first problem otherwise. */
export function checkDatabase(path: string): { ok: true } | { ok: false; problem: string } {
  let db: Database | undefined;
  try {
    db = openDatabase(path, { readonly: true, fileMustExist: true });
    const rows = db.prepare("PRAGMA quick_check(1)").pluck().all() as string[];
    return rows[0] === "ok" ? { ok: true } : { ok: false, problem: String(rows[0]) };
  } catch (err) {
    return { ok: false, problem: err instanceof Error ? err.message : String(err) };
  } finally {
    db?.close();
  }
}

export function salvageDatabase(path: string, now = new Date()): SalvageReport {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
  const kept = `${path}.damaged-${stamp}`;
  for (const suffix of ["", "-wal", "-shm"])
    if (existsSync(path + suffix)) copyFileSync(path + suffix, kept + suffix);
  const fresh = `${path}.recovering`;
  for (const suffix of ["", "-wal", "-shm"]) rmSync(fresh + suffix, { force: true });
  openSqliteEngine(fresh).close(); // the current schema, from the migrations
  const report: SalvageReport = { kept, copied: {}, lost: [] };
  // A copy of the kept copy: reading it may write its WAL back, and the kept one stays as found.
  const work = `${fresh}.source`;
  for (const suffix of ["", "-wal", "-shm"])
    if (existsSync(kept + suffix)) copyFileSync(kept + suffix, work + suffix);
  const src = openDatabase(work, { fileMustExist: true });
  const dst = openDatabase(fresh);
  try {
    dst.pragma("foreign_keys = OFF");
    const tables = dst
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as { name: string; sql: string }[];
    for (const t of tables) {
      if (REBUILT.test(t.name)) continue;
      report.copied[t.name] = copyTable(src, dst, t.name, /WITHOUT ROWID/i.test(t.sql), report.lost);
    }
  } finally {
    src.close();
    dst.close();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(work + suffix, { force: true });
  }
  for (const suffix of ["-wal", "-shm"]) rmSync(path + suffix, { force: true });
  renameSync(fresh, path);
  for (const suffix of ["-wal", "-shm"]) rmSync(fresh + suffix, { force: true });
  return report;
}

function columnsOf(db: Database, table: string): string[] {
  try {
    return (db.prepare(`PRAGMA table_info(${quoted(table)})`).all() as { name: string }[]).map((c) => c.name);
  } catch {
    return [];
  }
}

function copyTable(src: Database, dst: Database, table: string, noRowid: boolean, lost: string[]): number {
  const have = new Set(columnsOf(src, table));
  const cols = columnsOf(dst, table).filter((c) => have.has(c));
  if (!cols.length) {
    if (have.size === 0) lost.push(`${table}: not readable in the damaged file`);
    return 0;
  }
  const list = cols.map(quoted).join(", ");
  const insert = dst.prepare(
    `INSERT OR IGNORE INTO ${quoted(table)} (${list}) VALUES (${cols.map(() => "?").join(", ")})`,
  );
  let copied = 0;
  const put = (rows: unknown[][]) => {
    dst.transaction(() => {
      for (const r of rows) copied += insert.run(...r).changes;
    })();
  };
  const select = `SELECT ${list} FROM ${quoted(table)}`;
  if (noRowid) {
    try {
      put(src.prepare(select).raw().all());
    } catch (err) {
      lost.push(`${table}: ${(err as Error).message}`);
    }
    return copied;
  }
  let max: number;
  try {
    max = Number(
      src
        .prepare(`SELECT max(rowid) FROM ${quoted(table)}`)
        .pluck()
        .get() ?? 0,
    );
  } catch (err) {
    lost.push(`${table}: ${(err as Error).message}`);
    return 0;
  }
  const range = src.prepare(`${select} WHERE rowid BETWEEN ? AND ?`).raw();
  for (let from = 0; from <= max; from += CHUNK) {
    try {
      put(range.all(from, from + CHUNK - 1));
    } catch {
      // A damaged page in this range: the rows one by one, keeping those that read.
      let missed = 0;
      for (let id = from; id < from + CHUNK && id <= max; id++) {
        try {
          put(range.all(id, id));
        } catch {
          missed++;
        }
      }
      if (missed)
        lost.push(`${table}: rows ${from}–${Math.min(max, from + CHUNK - 1)} in part (${missed} unreadable)`);
    }
  }
  return copied;
}
