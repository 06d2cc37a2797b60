// A file is treated as binary when its first 8 KB contain a NUL byte (what git and grep do).
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
