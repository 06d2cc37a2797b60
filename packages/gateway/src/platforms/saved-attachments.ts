// Files sent to the bot (Telegram, Discord, Slack): each attachment is fetched through the
// platform's own download, saved under the profile's files folder, and named to the model in the
// message's text; a picture goes to the model as an image too (the runner shrinks it). One that
// cannot be fetched is named with why, and the message is still answered.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Attachment, InboundMessage } from "../message.js";

export interface SaveOptions {
  /** The folder files are saved in (made private on first use). */
  dir: string;
  /** The platform's download limit (a larger file is named, not saved). */
  maxBytes: number;
  /** Fetches one attachment's bytes (throws with why it could not). */
  fetch(a: Attachment): Promise<Buffer>;
  /** How an error reads in the message (the platform's own wording, without secrets). */
  explain(err: unknown): string;
  /** The line for a saved attachment, when the platform says more (a voice note's transcript). */
  describe?(a: Attachment, bytes: Buffer, path: string): Promise<string | undefined>;
}

/** The message's text with a line per attachment; saved ones get `url` (the path) and images `data`. */
export async function withSavedAttachments(msg: InboundMessage, o: SaveOptions): Promise<string> {
  const lines = [msg.text];
  for (const a of msg.attachments) {
    if (!a.url) continue;
    try {
      const bytes = await o.fetch(a);
      if (bytes.length > o.maxBytes) throw new Error(`larger than ${Math.floor(o.maxBytes / 1048576)} MB`);
      mkdirSync(o.dir, { recursive: true, mode: 0o700 });
      const path = join(o.dir, `${msg.messageId.replace(/[^0-9A-Za-z-]/g, "_")}-${safeName(a.name)}`);
      writeFileSync(path, bytes, { mode: 0o600 });
      a.url = path;
      if (a.kind === "image") a.data = bytes.toString("base64");
      const said = await o.describe?.(a, bytes, path);
      lines.push(
        said ??
          `[${a.kind === "image" ? "image" : "file"} attached: ${a.name}, saved at ${path} (${bytes.length} bytes)]`,
      );
    } catch (err) {
      lines.push(`[${a.kind} attached: ${a.name} (not downloaded: ${o.explain(err)})]`);
    }
  }
  return lines.filter((l) => l !== "").join("\n");
}

/** A plain HTTP GET's bytes; a non-2xx answer is an error naming the status. */
export async function download(url: string, init?: RequestInit): Promise<Buffer> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`download answered HTTP ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

function safeName(name: string): string {
  return (
    name
      .replace(/[^0-9A-Za-z._-]/g, "_")
      .replace(/^\.+/, "")
      .slice(0, 100) || "file"
  );
}
