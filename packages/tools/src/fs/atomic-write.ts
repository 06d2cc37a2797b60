// Atomic replace: readers see the old file or the new one, never a half-written one. The temp
// file lives in the target's folder so the final rename stays on one file system.
import { randomBytes } from "node:crypto";
import { mkdir, open, realpath, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";

/**
 * Writes `data` to `file` atomically, creating parent folders; returns the bytes written.
 * An abort before the final rename leaves the file as it was (the rename is the commit point).
 */
export async function atomicWriteFile(
  file: string,
  data: string | Uint8Array,
  signal?: AbortSignal,
): Promise<number> {
  abortCheck(signal, file);
  const target = await followSymlink(file);
  const dir = path.dirname(target);
  await mkdir(dir, { recursive: true });
  const existingMode = await stat(target).then(
    (s) => {
      if (s.isDirectory()) throw new Error(`${file} is a directory`);
      return s.mode & 0o7777;
    },
    () => undefined,
  );
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  const tmp = path.join(dir, `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  const fh = await open(tmp, "wx", existingMode ?? 0o666);
  try {
    // open()'s mode is filtered by the umask; keep an existing file's mode exactly.
    if (existingMode !== undefined) await fh.chmod(existingMode);
    await fh.writeFile(bytes);
    await fh.sync();
    await fh.close();
    abortCheck(signal, file);
    await rename(tmp, target);
  } catch (err) {
    await fh.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw err;
  }
  return bytes.length;
}

// Writing through a symlink should change the file it points at, not replace the link.
async function followSymlink(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return file;
  }
}

function abortCheck(signal: AbortSignal | undefined, file: string): void {
  if (signal?.aborted) throw new Error(`the turn was aborted; ${file} was left unchanged`);
}
