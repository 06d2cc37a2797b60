// Files in the fake Slack, as strict as Slack where Iris depends on it:
// - out: the current upload flow only (files.upload is retired: method_deprecated):
//   files.getUploadURLExternal (filename, length) → a POST of exactly `length` bytes to the
//   upload_url it gave (raw or multipart, as @slack/web-api sends it) → files.completeUploadExternal
//   (files [{id, title}], channel_id, thread_ts, initial_comment), which shares the file as a
//   message in the channel (or thread); a file not uploaded yet is file_not_found;
// - in: a user's file is shared with a `file_share` message; its url_private_download answers
//   only a request with the bot token as `Authorization: Bearer` — without, Slack's sign-in page
//   (HTML, status 200), which a bot must not save as the file.
import { randomBytes } from "node:crypto";
import { parseMultipart } from "../multipart.js";
import { SlackError, type SlackFile, type SlackMessage } from "./types.js";

export interface FilesState {
  /** Started uploads: file id → what getUploadURLExternal was told, and the bytes once posted. */
  uploads: Map<string, { filename: string; length: number; bytes?: Buffer; completed: boolean }>;
  /** Users' files the bot may download: file id → the file. */
  shared: Map<string, SlackFile>;
}

export const newFileId = () => `F${randomBytes(5).toString("hex").toUpperCase()}`;

/** files.getUploadURLExternal: where to POST the bytes, and the file's id. */
export function startUpload(
  s: FilesState,
  p: Record<string, unknown>,
  uploadUrl: (id: string) => string,
): Record<string, unknown> {
  const filename = typeof p.filename === "string" ? p.filename : "";
  const length = Number(p.length);
  if (filename === "" || !Number.isInteger(length) || length < 1) throw new SlackError("invalid_arguments");
  const id = newFileId();
  s.uploads.set(id, { filename, length, completed: false });
  return { upload_url: uploadUrl(id), file_id: id };
}

/** The POST to an upload_url: the bytes, raw or as the one file of a form; an HTTP status. */
export function receiveUpload(s: FilesState, id: string, body: Buffer, contentType: string): number {
  const u = s.uploads.get(id);
  if (!u || u.bytes) return 404;
  let bytes = body;
  if (contentType.startsWith("multipart/form-data")) {
    const files = Object.values(parseMultipart(body, contentType)).filter((v) => typeof v !== "string");
    if (files.length !== 1) return 400;
    bytes = (files[0] as { bytes: Buffer }).bytes;
  }
  if (bytes.length !== u.length) return 400;
  u.bytes = bytes;
  return 200;
}

/** files.completeUploadExternal: the uploaded files as one message (its text: initial_comment). */
export function completeUpload(
  s: FilesState,
  p: Record<string, unknown>,
  place: (channel: string, threadTs: string | undefined) => SlackMessage,
): Record<string, unknown> {
  let list: unknown = p.files;
  try {
    if (typeof list === "string") list = JSON.parse(list);
  } catch {
    throw new SlackError("invalid_arguments");
  }
  if (!Array.isArray(list) || list.length === 0) throw new SlackError("invalid_arguments");
  const files: SlackFile[] = [];
  for (const f of list as { id?: unknown; title?: unknown }[]) {
    const u = typeof f.id === "string" ? s.uploads.get(f.id) : undefined;
    if (!u?.bytes || u.completed) throw new SlackError("file_not_found");
    files.push({ id: f.id as string, name: u.filename, bytes: u.bytes });
  }
  const channel = typeof p.channel_id === "string" ? p.channel_id : undefined;
  if (channel) {
    const m = place(channel, typeof p.thread_ts === "string" ? p.thread_ts : undefined);
    m.files = files;
    m.texts = [typeof p.initial_comment === "string" ? p.initial_comment : ""];
  }
  for (const f of files) {
    const u = s.uploads.get(f.id);
    if (u) u.completed = true;
  }
  return { files: files.map((f) => ({ id: f.id, title: f.name })) };
}

/** A GET of a shared file's url_private_download: the bytes, or the sign-in page without the token. */
export function serveFile(
  s: FilesState,
  id: string,
  authorised: boolean,
): { status: number; type: string; body: Buffer } {
  const f = s.shared.get(id);
  if (!authorised)
    return {
      status: 200,
      type: "text/html; charset=utf-8",
      body: Buffer.from("<!DOCTYPE html><html><head><title>Slack</title></head><body>Sign in</body></html>"),
    };
  if (!f) return { status: 404, type: "text/plain", body: Buffer.from("file not found") };
  return { status: 200, type: f.mimetype ?? "application/octet-stream", body: f.bytes };
}
