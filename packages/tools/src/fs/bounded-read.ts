// Reading a file the model named, safely: only regular files (a device such as /dev/zero, a FIFO
// with no writer or a socket is refused before a byte is read: opening with O_NONBLOCK never
// waits for a writer, and the type is checked on the opened descriptor, so a swap after the
// check cannot slip one in), at most `maxBytes`, and within `timeoutMs`.
import { constants } from "node:fs";
import { open, stat } from "node:fs/promises";

export type BoundedRead =
  | { ok: true; data: Buffer }
  | {
      ok: false;
      reason: "missing" | "directory" | "special" | "too_big" | "timeout" | "error";
      message: string;
    };

export const DEFAULT_READ_TIMEOUT_MS = 30_000;

function kindOf(st: {
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}): string {
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

export async function readRegularFile(
  file: string,
  opts: { maxBytes: number; timeoutMs?: number; signal?: AbortSignal },
): Promise<BoundedRead> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
  const timedOut = new Promise<BoundedRead>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          ok: false,
          reason: "timeout",
          message: `${file}: reading took longer than ${timeoutMs / 1000} s`,
        }),
      timeoutMs,
    );
  });
  const read = async (): Promise<BoundedRead> => {
    try {
      handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return { ok: false, reason: "missing", message: `file not found: ${file}` };
      if (code === "EISDIR") return { ok: false, reason: "directory", message: `${file} is a directory` };
      // A socket cannot be opened at all (ENXIO): say what it is.
      const st =
        code === "ENXIO" || code === "EOPNOTSUPP" ? await stat(file).catch(() => undefined) : undefined;
      if (st && !st.isFile())
        return {
          ok: false,
          reason: "special",
          message: `${file} is ${kindOf(st)}, not a regular file; only regular files are read`,
        };
      return { ok: false, reason: "error", message: `cannot open ${file}: ${(e as Error).message}` };
    }
    const st = await handle.stat();
    if (st.isDirectory()) return { ok: false, reason: "directory", message: `${file} is a directory` };
    if (!st.isFile())
      return {
        ok: false,
        reason: "special",
        message: `${file} is ${kindOf(st)}, not a regular file; only regular files are read`,
      };
    if (st.size > opts.maxBytes)
      return {
        ok: false,
        reason: "too_big",
        message: `${file} is ${st.size} bytes, over the ${opts.maxBytes}-byte limit`,
      };
    // The size can lie (/proc files say 0, a file may grow): read in chunks up to the limit.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      opts.signal?.throwIfAborted();
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, opts.maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > opts.maxBytes)
        return { ok: false, reason: "too_big", message: `${file} is over the ${opts.maxBytes}-byte limit` };
    }
    return { ok: true, data: Buffer.concat(chunks, total) };
  };
  try {
    return await Promise.race([read(), timedOut]);
  } catch (e) {
    return { ok: false, reason: "error", message: `cannot read ${file}: ${(e as Error).message}` };
  } finally {
    clearTimeout(timer);
    await handle?.close().catch(() => {});
  }
}
