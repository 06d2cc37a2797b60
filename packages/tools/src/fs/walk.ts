// Depth-first walk of a folder in sorted order, skipping what no search should enter: .git,
// dependency and build folders, and whatever the .gitignore files along the way ignore.
// Symlinked folders are not followed (no loops); symlinked files are reported. It reads through
// a WalkFs, so every workspace (local disk, SFTP, a container) walks the same way.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { DirEntry, WalkOptions } from "../workspace/types.js";
import { type IgnoreRules, isIgnored, withGitignore } from "./gitignore.js";

/** What a walk reads: a folder's entries (throws when unreadable) and a small text file. */
export interface WalkFs {
  list(dir: string): Promise<DirEntry[]>;
  readText(file: string): Promise<string | undefined>;
}

/** This machine's disk. */
export const LOCAL_WALK_FS: WalkFs = {
  async list(dir) {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.map((e) => ({
      name: e.name,
      type: e.isDirectory() ? "directory" : e.isFile() ? "file" : e.isSymbolicLink() ? "symlink" : "other",
    }));
  },
  readText: (file) => readFile(file, "utf8").catch(() => undefined),
};

export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  ".git",
  "node_modules",
  "dist",
  "target",
  ".venv",
  "venv",
  "__pycache__",
  ".mypy_cache",
  ".pytest_cache",
  ".tox",
  ".next",
  ".nuxt",
  ".turbo",
  ".gradle",
]);

export type { WalkOptions };

/** Yields absolute paths of files under `root`. */
export async function* walkFiles(
  root: string,
  opts: WalkOptions = {},
  fs: WalkFs = LOCAL_WALK_FS,
): AsyncGenerator<string> {
  let yielded = 0;
  const useIgnore = opts.gitignore !== false;
  const stack: { dir: string; rules: IgnoreRules }[] = [{ dir: root, rules: [] }];
  while (stack.length > 0) {
    opts.signal?.throwIfAborted();
    const { dir, rules: inherited } = stack.pop() as { dir: string; rules: IgnoreRules };
    let entries: DirEntry[];
    try {
      entries = await fs.list(dir);
    } catch {
      continue; // unreadable folder: skip it rather than fail the whole search
    }
    const rel = path.relative(root, dir).split(path.sep).join("/");
    const rules = useIgnore ? await withGitignore(inherited, dir, rel, fs.readText) : inherited;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const e of entries) {
      const full = path.join(dir, e.name);
      const relPath = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.type === "directory") {
        if (!SKIPPED_DIRS.has(e.name) && !isIgnored(rules, relPath, true)) subdirs.push(full);
      } else if ((e.type === "file" || e.type === "symlink") && !isIgnored(rules, relPath, false)) {
        yield full;
        if (opts.maxFiles !== undefined && ++yielded >= opts.maxFiles) return;
      }
    }
    // Reverse so that the stack pops folders in sorted order.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push({ dir: subdirs[i] as string, rules });
  }
}
