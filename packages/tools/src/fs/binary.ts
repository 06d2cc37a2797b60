// A file is treated as binary when its first 8 KB contain a NUL byte (what git and grep do) or, for
// what the model is shown (read_file, terminal output), are not valid UTF-8: such bytes would reach
// the model as replacement characters, so it gets their kind and size instead.
import { isUtf8 } from "node:buffer";
import { open } from "node:fs/promises";

export const BINARY_SNIFF_BYTES = 8192;

export function looksBinary(buf: Uint8Array): boolean {
  const end = Math.min(buf.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (buf[i] === 0) return true;
  return false;
}

export async function fileLooksBinary(file: string): Promise<boolean> {
  const fh = await open(file, "r");
  try {
    const buf = Buffer.alloc(BINARY_SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, BINARY_SNIFF_BYTES, 0);
    return looksBinary(buf.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

/** Bytes that are not text: a NUL byte, or not valid UTF-8 (checked on the first 8 KB). */
export function isBinaryContent(buf: Uint8Array): boolean {
  if (looksBinary(buf)) return true;
  const sniff = buf.subarray(0, completeUtf8Prefix(buf, BINARY_SNIFF_BYTES));
  return !isUtf8(sniff);
}

/** The longest prefix of at most `max` bytes that does not end inside a UTF-8 sequence. */
function completeUtf8Prefix(buf: Uint8Array, max: number): number {
  const limit = Math.min(buf.length, max);
  let end = limit;
  let back = 0;
  while (back < 3 && end > 0 && ((buf[end - 1] as number) & 0xc0) === 0x80) {
    end--;
    back++;
  }
  const lead = end > 0 ? (buf[end - 1] as number) : 0;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return need > back + 1 ? end - 1 : limit;
}

const MAGIC: readonly [string, readonly number[], number?][] = [
  ["PNG image", [0x89, 0x50, 0x4e, 0x47]],
  ["JPEG image", [0xff, 0xd8, 0xff]],
  ["GIF image", [0x47, 0x49, 0x46, 0x38]],
  ["PDF document", [0x25, 0x50, 0x44, 0x46]],
  ["ZIP archive", [0x50, 0x4b, 0x03, 0x04]],
  ["gzip archive", [0x1f, 0x8b]],
  ["bzip2 archive", [0x42, 0x5a, 0x68]],
  ["xz archive", [0xfd, 0x37, 0x7a, 0x58, 0x5a]],
  ["7-Zip archive", [0x37, 0x7a, 0xbc, 0xaf]],
  ["ELF executable", [0x7f, 0x45, 0x4c, 0x46]],
  ["Mach-O executable", [0xcf, 0xfa, 0xed, 0xfe]],
  ["Windows executable", [0x4d, 0x5a]],
  ["WebAssembly module", [0x00, 0x61, 0x73, 0x6d]],
  ["SQLite database", [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65]],
  ["Java class file", [0xca, 0xfe, 0xba, 0xbe]],
  ["MP3 audio", [0x49, 0x44, 0x33]],
  ["Ogg media", [0x4f, 0x67, 0x67, 0x53]],
  ["MP4/QuickTime media", [0x66, 0x74, 0x79, 0x70], 4],
  ["WebP image", [0x57, 0x45, 0x42, 0x50], 8],
  ["tar archive", [0x75, 0x73, 0x74, 0x61, 0x72], 257],
];

/** What kind of binary this is, from its first bytes ("PNG image"), or "binary data". */
export function binaryKind(buf: Uint8Array): string {
  for (const [name, bytes, offset = 0] of MAGIC)
    if (buf.length >= offset + bytes.length && bytes.every((b, i) => buf[offset + i] === b)) return name;
  return "binary data";
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const units = ["KB", "MB", "GB"];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]} (${n.toLocaleString("en-US")} bytes)`;
}

/** "PNG image, 12.3 KB (12,600 bytes)": what a binary file or output is, without its bytes. */
export function describeBinary(buf: Uint8Array, totalBytes: number): string {
  return `${binaryKind(buf)}, ${formatBytes(totalBytes)}`;
}
