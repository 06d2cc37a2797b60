// Images from the command line (SPEC K6): `--image FILE` (repeatable) and `@photo.png` in the
// typed or -p text. Each is checked and shrunk to the providers' limits; the message becomes text
// plus image parts. A file that is missing or not an image is a usage error naming it.
import { readFileSync, statSync } from "node:fs";
import { relative, resolve } from "node:path";
import { type ImagePart, prepareImage, sniffImage, type UserMessage } from "@iris/llm";

export type ImageInput = { input: string | UserMessage; notes: string[] } | { error: string };

/** `@path` mentions in `text` that name an existing image file. */
export function mentionedImages(text: string, cwd: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\s)@((?:\\ |[^\s])+)/g)) {
    const path = resolve(cwd, (m[1] ?? "").replace(/\\ /g, " ").replace(/[,;:!?)]+$/, ""));
    if (found.includes(path) || !statSync(path, { throwIfNoEntry: false })?.isFile()) continue;
    const head = Buffer.alloc(16);
    try {
      head.set(readFileSync(path).subarray(0, 16));
    } catch {
      continue;
    }
    if (sniffImage(head)) found.push(path);
  }
  return found;
}

export async function withImages(text: string, files: readonly string[], cwd: string): Promise<ImageInput> {
  const paths = [...files.map((f) => resolve(cwd, f)), ...mentionedImages(text, cwd)];
  const unique = [...new Set(paths)];
  if (unique.length === 0) return { input: text, notes: [] };
  const images: ImagePart[] = [];
  const notes: string[] = [];
  for (const path of unique) {
    const rel = relative(cwd, path) || path;
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (err) {
      return { error: `iris: --image ${rel}: ${(err as NodeJS.ErrnoException).code ?? "cannot read it"}` };
    }
    try {
      const image = await prepareImage(bytes, rel);
      images.push({ type: "image", mediaType: image.mediaType, data: image.data });
      const resized = image.resizedFrom
        ? `, resized from ${image.resizedFrom.width}×${image.resizedFrom.height}`
        : "";
      notes.push(`attached ${rel} (${image.width}×${image.height} image${resized})`);
    } catch (err) {
      return { error: `iris: ${err instanceof Error ? err.message : String(err)}` };
    }
  }
  return { input: { role: "user", content: [{ type: "text", text }, ...images] }, notes };
}
