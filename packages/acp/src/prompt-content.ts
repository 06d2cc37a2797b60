// An ACP prompt (content blocks) as one Iris user message. Text stays text; a `file://` link is
// read here, up to a size cap; embedded resources arrive with their text; images go to routes
// with vision and become a short note for routes without (the model is told, not left guessing).
import { readFile, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { UserMessage, UserPart } from "@iris/llm";

/** Largest linked file read into a prompt; larger files are cut with a note. */
export const LINKED_FILE_CAP_BYTES = 512 * 1024;

export type PromptBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string; uri?: string | null }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string | null }
  | {
      type: "resource";
      resource:
        | { uri: string; text: string; mimeType?: string | null }
        | { uri: string; blob: string; mimeType?: string | null };
    };

export interface PromptOptions {
  vision: boolean;
  /** Reads a linked file's text (through the editor when it offers fs; default the disk). */
  readText?: (path: string) => Promise<string>;
}

const fence = (label: string, body: string) => `<file ${label}>\n${body}\n</file>`;

async function readLinked(uri: string, opts: PromptOptions): Promise<string> {
  let path: string;
  try {
    path = fileURLToPath(uri);
  } catch {
    return `[linked resource ${uri}: only file:// links are read]`;
  }
  try {
    if (opts.readText) return cap(await opts.readText(path));
    const info = await stat(path);
    if (!info.isFile()) return `[${path} is not a file]`;
    const buf = await readFile(path);
    if (buf.subarray(0, 8000).includes(0)) return `[${path} is a binary file and was not read]`;
    return cap(buf.toString("utf8"));
  } catch (err) {
    return `[${path} could not be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}]`;
  }
}

function cap(text: string): string {
  if (Buffer.byteLength(text, "utf8") <= LINKED_FILE_CAP_BYTES) return text;
  const cut = Buffer.from(text, "utf8").subarray(0, LINKED_FILE_CAP_BYTES).toString("utf8");
  return `${cut}\n[… cut at ${LINKED_FILE_CAP_BYTES / 1024} KiB; use read_file with an offset for the rest]`;
}

export async function promptToMessage(blocks: PromptBlock[], opts: PromptOptions): Promise<UserMessage> {
  const parts: UserPart[] = [];
  const text = (t: string) => parts.push({ type: "text", text: t });
  const image = (mediaType: string, data: string) => {
    if (opts.vision) parts.push({ type: "image", mediaType, data });
    else text(`[an image (${mediaType}) was attached, but this model cannot see images]`);
  };
  for (const b of blocks) {
    switch (b.type) {
      case "text":
        text(b.text);
        break;
      case "image":
        image(b.mimeType, b.data);
        break;
      case "audio":
        text("[an audio clip was attached; Iris does not take audio]");
        break;
      case "resource_link":
        text(fence(`uri="${b.uri}" name="${b.name}"`, await readLinked(b.uri, opts)));
        break;
      case "resource": {
        const r = b.resource;
        if ("text" in r) text(fence(`uri="${r.uri}"`, cap(r.text)));
        else if (r.mimeType?.startsWith("image/")) image(r.mimeType, r.blob);
        else text(`[binary resource ${r.uri} (${r.mimeType ?? "unknown type"}) was not read]`);
        break;
      }
    }
  }
  if (parts.every((p) => p.type === "text"))
    return { role: "user", content: parts.map((p) => (p as { text: string }).text).join("\n\n") };
  return { role: "user", content: parts };
}
