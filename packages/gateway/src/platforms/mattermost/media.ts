// Files of a Mattermost post (SPEC G1): each is fetched with the token from this server's
// `GET /api/v4/files/{id}` and saved under the profile; images go to the model, other files are
// named to it with where they were saved. A file that cannot be fetched becomes a line saying so.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Attachment } from "../../message.js";
import type { FileInfo } from "./normalise.js";

const MAX_FILE = 50 * 1024 * 1024;

export interface FilePlace {
  /** The server's API root (…/api/v4). */
  api: string;
  token: string;
  filesDir: string;
}

export async function readFiles(
  files: readonly FileInfo[],
  postId: string,
  place: FilePlace,
): Promise<{ attachments: Attachment[]; lines: string[] }> {
  const attachments: Attachment[] = [];
  const lines: string[] = [];
  for (const f of files) {
    const kind: Attachment["kind"] = f.mime_type.startsWith("image/") ? "image" : "file";
    const name = f.name.trim() || `${kind}-${f.id.slice(0, 8)}`;
    const attachment: Attachment = { kind, name };
    attachments.push(attachment);
    try {
      if (f.size > MAX_FILE) throw new Error("larger than 50 MB");
      const res = await fetch(`${place.api}/files/${encodeURIComponent(f.id)}`, {
        headers: { authorization: `Bearer ${place.token}` },
        signal: AbortSignal.timeout(60_000),
      });
      if (!res.ok) throw new Error(`the download answered HTTP ${res.status}`);
      const bytes = Buffer.from(await res.arrayBuffer());
      if (bytes.length > MAX_FILE) throw new Error("larger than 50 MB");
      mkdirSync(place.filesDir, { recursive: true, mode: 0o700 });
      const path = join(place.filesDir, `${postId.slice(0, 12)}-${name.replace(/[^\w.-]/g, "_")}`);
      writeFileSync(path, bytes, { mode: 0o600 });
      attachment.url = path;
      if (kind === "image") attachment.data = bytes.toString("base64");
      lines.push(`[${kind} attached: ${name}, saved at ${path} (${bytes.length} bytes)]`);
    } catch (err) {
      lines.push(`[${kind} attached: ${name} (not downloaded: ${(err as Error).message})]`);
    }
  }
  return { attachments, lines };
}
