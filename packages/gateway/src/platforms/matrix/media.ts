// Matrix media (SPEC G1): an incoming m.image / m.file / m.audio is fetched from the homeserver's
// authenticated media API (GET /_matrix/client/v1/media/download, with the token, only from this
// homeserver) and saved; images go to the model, voice notes (m.audio, org.matrix.msc3245.voice)
// are transcribed. A voice answer is uploaded (POST /_matrix/media/v3/upload) and sent as m.audio
// with the voice flag, which Element shows as a voice message; a file the agent sends, as m.image
// (a picture) or m.file.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OutboundFile } from "../../adapter.js";
import type { Attachment } from "../../message.js";
import { isPicture, typeOfFile } from "../file-types.js";
import { type Speech, voiceNoteText } from "../voice/speech.js";

const MAX_MEDIA = 50 * 1024 * 1024;
const KINDS: Record<string, Attachment["kind"]> = {
  "m.image": "image",
  "m.file": "file",
  "m.audio": "audio",
};

export interface MediaPlace {
  homeserver: string;
  token: string;
  filesDir: string;
}

/** Whether content is media this adapter reads. */
export const isMedia = (c: Record<string, unknown>) => typeof c.msgtype === "string" && c.msgtype in KINDS;

/** The media of an event as an attachment and a line for the model (a transcript for a voice note). */
export async function readMedia(
  c: Record<string, unknown>,
  eventId: string,
  place: MediaPlace,
  speech: Speech | undefined,
): Promise<{ attachment: Attachment; line: string }> {
  const kind = KINDS[String(c.msgtype)] ?? "file";
  const name = (typeof c.body === "string" && c.body.trim()) || `${kind}-${eventId.slice(1, 9)}`;
  const attachment: Attachment = { kind, name };
  try {
    const m = /^mxc:\/\/([^/]+)\/([^/?#]+)$/.exec(typeof c.url === "string" ? c.url : "");
    if (!m) throw new Error("no mxc:// url (an encrypted file is not read)");
    const res = await fetch(
      `${place.homeserver}/_matrix/client/v1/media/download/${encodeURIComponent(m[1] ?? "")}/${encodeURIComponent(m[2] ?? "")}`,
      { headers: { authorization: `Bearer ${place.token}` }, signal: AbortSignal.timeout(60_000) },
    );
    if (!res.ok) throw new Error(`the download answered HTTP ${res.status}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    if (bytes.length > MAX_MEDIA) throw new Error("larger than 50 MB");
    mkdirSync(place.filesDir, { recursive: true, mode: 0o700 });
    const path = join(
      place.filesDir,
      `${eventId.replace(/[^\w]/g, "").slice(0, 16)}-${name.replace(/[^\w.-]/g, "_")}`,
    );
    writeFileSync(path, bytes, { mode: 0o600 });
    attachment.url = path;
    if (kind === "image") attachment.data = bytes.toString("base64");
    if (kind !== "audio")
      return { attachment, line: `[${kind} attached: ${name}, saved at ${path} (${bytes.length} bytes)]` };
    return { attachment, line: await voiceNoteText(speech, { bytes, name, path }) };
  } catch (err) {
    return { attachment, line: `[${kind} attached: ${name} (not downloaded: ${(err as Error).message})]` };
  }
}

/** The homeserver's upload limit as Synapse sets it by default (max_upload_size). */
export const MATRIX_MAX_UPLOAD = MAX_MEDIA;

/** Uploads bytes to the media repository; their mxc:// URI. */
async function upload(bytes: Buffer, name: string, mimetype: string, place: MediaPlace): Promise<string> {
  const res = await fetch(
    `${place.homeserver}/_matrix/media/v3/upload?filename=${encodeURIComponent(name)}`,
    {
      method: "POST",
      headers: { authorization: `Bearer ${place.token}`, "content-type": mimetype },
      body: new Uint8Array(bytes),
      signal: AbortSignal.timeout(60_000),
    },
  );
  const up = (await res.json().catch(() => ({}))) as { content_uri?: unknown; errcode?: unknown };
  if (!res.ok || typeof up.content_uri !== "string")
    throw new Error(
      `the media upload answered HTTP ${res.status}${up.errcode ? ` ${String(up.errcode)}` : ""}`,
    );
  return up.content_uri;
}

/** Uploads a file the agent sends; the m.image (a picture) or m.file content that shows it. */
export async function fileContent(file: OutboundFile, place: MediaPlace): Promise<Record<string, unknown>> {
  const mimetype = typeOfFile(file);
  const url = await upload(file.data, file.name, mimetype, place);
  // MSC2530: `body` is the caption when `filename` names the file.
  return {
    msgtype: isPicture(mimetype) ? "m.image" : "m.file",
    body: file.caption ?? file.name,
    ...(file.caption ? { filename: file.name } : {}),
    url,
    info: { mimetype, size: file.data.length },
  };
}

/** Uploads an OGG/Opus voice answer; the m.audio content that shows it as a voice message. */
export async function voiceContent(ogg: Buffer, place: MediaPlace): Promise<Record<string, unknown>> {
  const url = await upload(ogg, "answer.ogg", "audio/ogg", place);
  return {
    msgtype: "m.audio",
    body: "Voice message",
    url,
    info: { mimetype: "audio/ogg", size: ogg.length },
    "org.matrix.msc1767.audio": {},
    "org.matrix.msc3245.voice": {},
  };
}
