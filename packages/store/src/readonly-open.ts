// Reading a database whose folder cannot be written. SQLite reads a WAL database only where it
// can create the -shm file next to it (or with URIs, which this driver's build does not take),
// so in a read-only folder the file and its WAL are copied to a private temp folder and the copy
// is read: a snapshot of the moment of opening, removed again on close.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "./driver.js";

export interface ReadonlyDb {
  db: Database;
  /** Removes the snapshot, if one was made. */
  cleanup(): void;
}

function code(err: unknown): string {
  return String((err as { code?: unknown })?.code ?? "");
}

export function openReadonlyDb(path: string): ReadonlyDb {
  try {
    const db = openDatabase(path, { readonly: true, fileMustExist: true });
    db.prepare("SELECT 1 FROM sqlite_master LIMIT 1").get(); // WAL setup happens on first read
    return { db, cleanup: () => {} };
  } catch (err) {
    if (!/^SQLITE_(READONLY|CANTOPEN)/.test(code(err)) || !existsSync(path)) throw err;
  }
  const dir = mkdtempSync(join(tmpdir(), "iris-readonly-"));
  try {
    const copy = join(dir, "state.db");
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    const db = openDatabase(copy, { readonly: true, fileMustExist: true });
    return { db, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
