// What a batch run already did, read from its own output (issue 18, against Hermes's six resume
// bugs): the key of every row in OUT is done, whatever its status — failed, discarded and
// budget-stopped items included, so nothing is paid for twice — and nothing else is. A torn last
// row is cut off and its item runs again. The failure file is repaired to match OUT (a failed
// row whose error entry was lost to a kill gets it now). `--rerun STATUS` drops the rows of
// those statuses first (one atomic rewrite), so exactly those items run again.
import { closeSync, existsSync, fsyncSync, openSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { JsonlFileError, readJsonlRows } from "./jsonl-file.js";
import { type RowStatus, type TrajectoryRow, trajectoryRowSchema } from "./trajectory.js";

/** An entry of the failure file: a failed item's error, or a malformed input line. */
export interface FailureEntry {
  key: string;
  line?: number;
  id?: string | null;
  status: "failed" | "malformed";
  termination_reason?: string;
  error: string;
  text?: string;
}

export interface BatchPaths {
  out: string;
  failed: string;
  meta: string;
  /** The conversation logs (JSONL) of the items running now; each removed once its row is out. */
  trajectories: string;
  /** Held while a run writes the output (one run per output). */
  lock: string;
}

/** OUT.jsonl → OUT.failed.jsonl, OUT.meta.json, OUT.trajectories/ and OUT.lock beside it. */
export function batchPaths(out: string, failed?: string): BatchPaths {
  const stem = out.endsWith(".jsonl") ? out.slice(0, -".jsonl".length) : out;
  return {
    out,
    failed: failed ?? `${stem}.failed.jsonl`,
    meta: `${stem}.meta.json`,
    trajectories: `${stem}.trajectories`,
    lock: `${stem}.lock`,
  };
}

export interface Ledger {
  rows: Map<string, TrajectoryRow>;
  failures: Map<string, FailureEntry>;
  /** Things the user should know: a torn row cut off, rows dropped by --rerun. */
  notes: string[];
}

function checkRow(path: string) {
  return (value: unknown, line: number): TrajectoryRow => {
    const res = trajectoryRowSchema.safeParse(value);
    if (!res.success)
      throw new JsonlFileError(`${path}:${line}: not a row of iris batch (${res.error.issues[0]?.message})`);
    return res.data;
  };
}

function checkFailure(path: string) {
  return (value: unknown, line: number): FailureEntry => {
    const v = value as Partial<FailureEntry> | null;
    if (!v || typeof v !== "object" || typeof v.key !== "string")
      throw new JsonlFileError(`${path}:${line}: not an entry of a batch failure file`);
    return v as FailureEntry;
  };
}

export function readLedger(paths: BatchPaths, opts: { rerun: readonly RowStatus[] }): Ledger {
  const notes: string[] = [];
  const out = readJsonlRows(paths.out, checkRow(paths.out), { repair: true });
  if (out.tornBytes > 0)
    notes.push(
      `${paths.out}: a half-written last row (${out.tornBytes} bytes) from an interrupted run was removed; its item runs again`,
    );
  const failed = readJsonlRows(paths.failed, checkFailure(paths.failed), { repair: true });
  if (failed.tornBytes > 0)
    notes.push(`${paths.failed}: a half-written last entry (${failed.tornBytes} bytes) was removed`);
  let rows = out.rows;
  let failures = failed.rows;
  if (opts.rerun.length) {
    const again = new Set(rows.filter((r) => opts.rerun.includes(r.status)).map((r) => r.key));
    if (again.size) {
      rows = rows.filter((r) => !again.has(r.key));
      failures = failures.filter((f) => !again.has(f.key));
      rewriteAtomically(paths.out, rows);
      rewriteAtomically(paths.failed, failures);
      notes.push(`${again.size} item(s) with status ${opts.rerun.join("/")} run again (--rerun)`);
    }
  }
  const byKey = new Map<string, TrajectoryRow>();
  for (const r of rows) {
    if (byKey.has(r.key))
      notes.push(`${paths.out}: key ${r.key} has more than one row; the first one counts`);
    else byKey.set(r.key, r);
  }
  const failuresByKey = new Map<string, FailureEntry>();
  for (const f of failures) if (!failuresByKey.has(f.key)) failuresByKey.set(f.key, f);
  return { rows: byKey, failures: failuresByKey, notes };
}

/** Drops the rows (and failure entries) of `keys` from OUT, in one atomic rewrite each, so they run again. */
export function dropRows(paths: BatchPaths, ledger: Ledger, keys: readonly string[]): void {
  const drop = new Set(keys);
  for (const k of drop) {
    ledger.rows.delete(k);
    ledger.failures.delete(k);
  }
  const out = readJsonlRows(paths.out, checkRow(paths.out), { repair: true }).rows;
  rewriteAtomically(
    paths.out,
    out.filter((r) => !drop.has(r.key)),
  );
  const failed = readJsonlRows(paths.failed, checkFailure(paths.failed), { repair: true }).rows;
  rewriteAtomically(
    paths.failed,
    failed.filter((f) => !drop.has(f.key)),
  );
}

/** Writes `rows` to a temp file, flushes it, then renames it over `path` (never half a file). */
function rewriteAtomically(path: string, rows: readonly unknown[]): void {
  if (!existsSync(path)) return;
  const tmp = join(dirname(path), `.${basename(path)}.tmp`);
  writeFileSync(tmp, rows.map((r) => `${JSON.stringify(r)}\n`).join(""), { mode: 0o644 });
  const fd = openSync(tmp, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** The failure entry of a failed row. */
export function failureOf(row: TrajectoryRow, line: number): FailureEntry {
  return {
    key: row.key,
    line,
    id: row.id,
    status: "failed",
    termination_reason: row.termination_reason,
    error: row.error ?? row.termination_reason,
  };
}
