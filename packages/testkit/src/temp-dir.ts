/** Throwaway directories for tests. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TempDir {
  path: string;
  cleanup(): void;
}

export function tempDir(prefix: string): TempDir {
  const path = mkdtempSync(join(tmpdir(), `${prefix.replace(/[^A-Za-z0-9._-]/g, "_")}-`));
  // Retried: a file written as the folder is removed (a log line flushed at close) makes the last
  // rmdir fail with ENOTEMPTY once.
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true, maxRetries: 5 }) };
}
