// A count that moves whenever one of a few files may have changed, told by a watch on each file's
// folder (inotify and the like): callers compare counts instead of reading the files' times on
// every use. A folder that cannot be watched (missing, no watches left, a file system without
// them) makes count() answer undefined, and the caller reads the files itself.
import { watch } from "node:fs";
import { basename, dirname } from "node:path";

/** Watches `dir`; `onChange(name)` for each change in it (null: unknown which), `onError` once it
 * stops. Throws when the folder cannot be watched. */
export type WatchFolder = (
  dir: string,
  onChange: (name: string | null) => void,
  onError: () => void,
) => { close(): void };

const watchWithNode: WatchFolder = (dir, onChange, onError) => {
  // Not persistent: a watch never keeps the process alive.
  const watcher = watch(dir, { persistent: false }, (_event, name) => onChange(name));
  watcher.on("error", onError);
  return watcher;
};

interface Folder {
  /** Undefined: not watched (the files are read by the caller). */
  watch: { close(): void } | undefined;
  names: Set<string>;
}

export class FileChanges {
  private readonly folders = new Map<string, Folder>();
  private changes = 0;

  constructor(private readonly watchFolder: WatchFolder = watchWithNode) {}

  /** The count of changes seen to any watched file, or undefined when one of `paths` is not watched. */
  count(paths: readonly string[]): number | undefined {
    for (const path of paths) if (!this.watching(path)) return undefined;
    return this.changes;
  }

  close(): void {
    for (const folder of this.folders.values()) folder.watch?.close();
    this.folders.clear();
  }

  private watching(path: string): boolean {
    const dir = dirname(path);
    let folder = this.folders.get(dir);
    if (!folder) {
      const made: Folder = { watch: undefined, names: new Set() };
      folder = made;
      this.folders.set(dir, made);
      try {
        made.watch = this.watchFolder(
          dir,
          (name) => {
            // A folder also holds other files (state.db and its journal beside SOUL.md).
            if (name === null || made.names.has(name)) this.changes++;
          },
          () => {
            made.watch?.close();
            made.watch = undefined;
            this.changes++;
          },
        );
      } catch {
        made.watch = undefined;
      }
    }
    folder.names.add(basename(path));
    return folder.watch !== undefined;
  }
}
