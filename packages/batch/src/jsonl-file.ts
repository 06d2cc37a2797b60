// Append-only JSONL files that survive kill -9: one write plus fsync per row, and on reading, a
// torn last line (the process died mid-write, or the disk lost the tail) is cut off and reported
// so its item runs again. A bad line anywhere else means something else wrote the file: we stop
// rather than guess.
import { closeSync, existsSync, fsyncSync, ftruncateSync, openSync, readFileSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";

export interface ReadRows<T> {
  rows: T[];
  /** Bytes of a torn last line that were cut off (0 when the file was whole). */
  tornBytes: number;
}

export class JsonlFileError extends Error {}

/**
 * Reads a JSONL file of objects; a torn last line is truncated from the file on disk when
 * `repair` is set. Throws JsonlFileError naming the line for a bad line before the last.
 */
export function readJsonlRows<T>(
  path: string,
  check: (row: unknown, line: number) => T,
  opts: { repair: boolean },
): ReadRows<T> {
  if (!existsSync(path)) return { rows: [], tornBytes: 0 };
  const buf = readFileSync(path);
  const text = buf.toString("utf8");
  const rows: T[] = [];
  let offset = 0;
  let line = 0;
  let tornAt: number | undefined;
  while (offset < text.length) {
    const nl = text.indexOf("\n", offset);
    const end = nl === -1 ? text.length : nl;
    const raw = text.slice(offset, end);
    line += 1;
    const last = nl === -1 || nl === text.length - 1;
    if (raw.trim() !== "") {
      let value: unknown;
      let ok = nl !== -1;
      if (ok) {
        try {
          value = JSON.parse(raw);
        } catch {
          ok = false;
        }
      }
      if (!ok) {
        if (!last)
          throw new JsonlFileError(`${path}:${line}: not a JSON row; the file was edited or corrupted`);
        tornAt = Buffer.byteLength(text.slice(0, offset), "utf8");
        break;
      }
      rows.push(check(value, line));
    }
    if (nl === -1) break;
    offset = nl + 1;
  }
  if (tornAt === undefined) return { rows, tornBytes: 0 };
  const tornBytes = buf.length - tornAt;
  if (opts.repair) {
    const fd = openSync(path, "r+");
    try {
      ftruncateSync(fd, tornAt);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  return { rows, tornBytes };
}

/**
 * An append-only JSONL file: every row is one write, flushed to disk (fsync) before its append
 * resolves. Appends queue in call order; the waiting happens off the event loop, so the other
 * workers keep running while a row is flushed.
 */
export class DurableJsonl {
  private handle: FileHandle | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  append(row: unknown): Promise<void> {
    const data = Buffer.from(`${JSON.stringify(row)}\n`, "utf8");
    const done = this.queue.then(() => this.write(data));
    this.queue = done.catch(() => {});
    return done;
  }

  private async write(data: Buffer): Promise<void> {
    this.handle ??= await open(this.path, "a", 0o644);
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await this.handle.write(data, written, data.length - written);
      written += bytesWritten;
    }
    await this.handle.sync();
  }

  async close(): Promise<void> {
    await this.queue;
    await this.handle?.close();
    this.handle = undefined;
  }
}
