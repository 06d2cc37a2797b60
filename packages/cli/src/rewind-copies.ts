// The copies /rewind restores files from, kept on disk in the profile (`rewind/<session>/`) so
// that a resumed session can still rewind what an earlier process changed. Per user message: an
// index of the files its turn edited, each with its bytes from before the first edit (stored once
// by content hash) or null when the turn created it. Written atomically, readable by the user only
// (a copy may hold anything the file held).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

interface Index {
  files: { path: string; blob: string | null }[];
}

export class RewindCopies {
  private readonly blobs: string;

  constructor(private readonly dir: string) {
    this.blobs = join(dir, "blobs");
  }

  private indexPath(messageId: string): string {
    return join(this.dir, `${messageId.replace(/[^A-Za-z0-9_-]/g, "_")}.json`);
  }

  private read(messageId: string): Index {
    try {
      return JSON.parse(readFileSync(this.indexPath(messageId), "utf8")) as Index;
    } catch {
      return { files: [] };
    }
  }

  private write(path: string, data: string | Buffer): void {
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, path);
  }

  /** Whether message `messageId`'s turn has a copy of `file` already (the first edit's counts). */
  has(messageId: string, file: string): boolean {
    return this.read(messageId).files.some((f) => f.path === file);
  }

  /** Keeps `bytes` (null: the file did not exist) as `file` before message `messageId`'s turn. */
  keep(messageId: string, file: string, bytes: Buffer | null): void {
    const index = this.read(messageId);
    if (index.files.some((f) => f.path === file)) return;
    mkdirSync(this.blobs, { recursive: true, mode: 0o700 });
    let blob: string | null = null;
    if (bytes) {
      blob = createHash("sha256").update(bytes).digest("hex");
      this.write(join(this.blobs, blob), bytes);
    }
    index.files.push({ path: file, blob });
    this.write(this.indexPath(messageId), JSON.stringify(index));
  }

  /** The files of message `messageId`'s turn with their bytes from before it (null: remove). */
  entries(messageId: string): [string, Buffer | null][] {
    return this.read(messageId).files.flatMap((f): [string, Buffer | null][] => {
      if (f.blob === null) return [[f.path, null]];
      try {
        return [[f.path, readFileSync(join(this.blobs, f.blob))]];
      } catch {
        return []; // a copy removed by hand: that file cannot be restored
      }
    });
  }

  /** Forgets message `messageId`'s copies (its turn was rewound). Blobs are shared and stay. */
  drop(messageId: string): void {
    rmSync(this.indexPath(messageId), { force: true });
  }
}
