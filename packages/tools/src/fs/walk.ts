// Depth-first walk of a folder in sorted order, skipping folders no search should enter.
// Symlinked folders are not followed (no loops); symlinked files are reported.
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";

export const SKIPPED_DIRS: ReadonlySet<string> = new Set([".git", "node_modules"]);

export interface WalkOptions {
  signal?: AbortSignal;
  /** Stop after this many files have been yielded. */
  maxFiles?: number;
}

/** Yields absolute paths of files under `root`. */
export async function* walkFiles(root: string, opts: WalkOptions = {}): AsyncGenerator<string> {
  let yielded = 0;
  const stack: string[] = [root];
  while (stack.length > 0) {
    opts.signal?.throwIfAborted();
    const dir = stack.pop() as string;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable folder: skip it rather than fail the whole search
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) subdirs.push(full);
      } else if (e.isFile() || e.isSymbolicLink()) {
        yield full;
        if (opts.maxFiles !== undefined && ++yielded >= opts.maxFiles) return;
      }
    }
    // Reverse so that the stack pops folders in sorted order.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i] as string);
  }
}
