// A Bot API file parameter: it holds `attach://<part>`, naming the multipart part with the bytes.
import type { UploadedFile } from "../multipart.js";

/** A parameter's file: an upload (`attach://part`), or undefined. */
export function fileParam(p: Record<string, unknown>, key: string): UploadedFile | undefined {
  const v = p[key];
  if (typeof v !== "string" || !v.startsWith("attach://")) return undefined;
  const f = p[v.slice("attach://".length)];
  return f && typeof f === "object" && "bytes" in f ? (f as UploadedFile) : undefined;
}
