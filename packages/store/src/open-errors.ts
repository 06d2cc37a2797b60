// What SQLite says when a database cannot be opened, turned into a message that names the file
// and the fix ("database disk image is malformed" alone helps nobody).
import { dirname } from "node:path";
import { StoreError } from "./errors.js";

function sqliteCode(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  return typeof code === "string" ? code : "";
}

export function explainOpenError(err: unknown, path: string): unknown {
  if (err instanceof StoreError) return err;
  const code = sqliteCode(err);
  const said = err instanceof Error ? err.message : String(err);
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB")
    return new StoreError(
      "db_corrupt",
      `${path} is damaged or not an Iris database (${said}); move it aside and Iris starts a new one: ` +
        `mv ${path} ${path}.broken (sqlite3 ${path}.broken .recover may save its sessions)`,
    );
  if (code.startsWith("SQLITE_CANTOPEN"))
    return new StoreError(
      "db_unopenable",
      `cannot open ${path} (${said}); check that ${dirname(path)} exists and that you may read and write it: ls -ld ${dirname(path)} ${path}`,
    );
  if (code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_PERM") || code.startsWith("SQLITE_AUTH"))
    return new StoreError(
      "db_readonly",
      `${path} cannot be written (${said}); check its owner and mode and its folder's: ls -ld ${dirname(path)} ${path}*`,
    );
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))
    return new StoreError(
      "db_busy",
      `${path} stayed locked by another process (${said}); wait for it to finish, or find it: fuser ${path}`,
    );
  if (code === "SQLITE_FULL" || code.startsWith("SQLITE_IOERR"))
    return new StoreError(
      "db_io",
      `${path} could not be written (${said}); check the free space and the disk: df -h ${dirname(path)}`,
    );
  return err;
}
