// OUT.meta.json: what the run started from — the input file's hash and the options that shape a
// trajectory — so a resume can say when the input or the options changed since. An input that
// only grew (lines added) resumes quietly with the new items; rows whose key is in no line of the
// input any more mean lines were edited or removed: we report which and stop unless --force.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export interface RunMeta {
  version: 1;
  /** The run's id, kept across resumes: `--queue` names its jobs by it (absent before it existed). */
  run_id?: string;
  input: { path: string; sha256: string; lines: number };
  options: Record<string, unknown>;
  runs: { started_at: string; resumed: boolean }[];
}

export function readMeta(path: string): RunMeta | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const v = JSON.parse(readFileSync(path, "utf8")) as RunMeta;
    return v && v.version === 1 ? v : undefined;
  } catch {
    return undefined;
  }
}

export function writeMeta(path: string, meta: RunMeta): void {
  const tmp = join(dirname(path), `.${basename(path)}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(meta, null, 2)}\n`, { mode: 0o644 });
  renameSync(tmp, path);
}

export interface InputChange {
  changed: boolean;
  /** Keys with a row or failure entry that no line of the input has now. */
  orphans: string[];
  /** Options that differ from the recorded ones: "model: a → b". */
  options: string[];
  message?: string;
}

export function compareInput(
  meta: RunMeta | undefined,
  now: { sha256: string; allKeys: ReadonlySet<string>; options: Record<string, unknown> },
  doneKeys: Iterable<string>,
): InputChange {
  const orphans = [...doneKeys].filter((k) => !now.allKeys.has(k));
  const options: string[] = [];
  if (meta)
    for (const [k, v] of Object.entries(now.options)) {
      const before = JSON.stringify(meta.options[k] ?? null);
      const after = JSON.stringify(v ?? null);
      if (before !== after) options.push(`${k}: ${before} → ${after}`);
    }
  const changed = meta !== undefined && meta.input.sha256 !== now.sha256;
  const parts: string[] = [];
  if (changed)
    parts.push(
      `the input file changed since this run began (sha256 ${meta.input.sha256.slice(0, 12)}… → ${now.sha256.slice(0, 12)}…)`,
    );
  if (orphans.length)
    parts.push(
      `${orphans.length} item(s) already in the output match no line of the input now (edited or removed lines): ` +
        `${orphans.slice(0, 5).join(", ")}${orphans.length > 5 ? ", …" : ""}`,
    );
  if (options.length) parts.push(`options differ from the earlier run: ${options.join("; ")}`);
  return { changed, orphans, options, ...(parts.length ? { message: parts.join("; ") } : {}) };
}
