// Files on Slack (SPEC G1). In: a user's `file_share` names each file's private download URL,
// which answers only with the bot token (scope files:read) — without it Slack answers its sign-in
// page with status 200, which must not be saved as the file. The token goes only to Slack's own
// file host (or the configured api_url's, a test fake or proxy). Out: files.uploadV2 (Slack's
// current flow: getUploadURLExternal, the upload, completeUploadExternal; files.upload is retired).
import type { Attachment } from "../../message.js";

/** Slack takes files up to 1 GB; the bot reads a file whole, so it stops far below. */
export const SLACK_MAX_FILE = 100 * 1024 * 1024;

/** Where a file is downloaded from, with the token: Slack's file host, or the api_url's host. */
export function fileOrigins(apiUrl?: string): Set<string> {
  const origins = new Set(["https://files.slack.com"]);
  if (apiUrl) origins.add(new URL(apiUrl).origin);
  return origins;
}

/** A shared file's bytes (its url_private_download), fetched with the bot token. */
export async function downloadPrivate(a: Attachment, token: string, origins: Set<string>): Promise<Buffer> {
  const url = new URL(a.url ?? "");
  if (!origins.has(url.origin)) throw new Error(`${url.origin} is not Slack's file host`);
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`download answered HTTP ${res.status}`);
  const html = (res.headers.get("content-type") ?? "").startsWith("text/html");
  if (html && !/\.html?$/i.test(a.name))
    throw new Error(
      "Slack answered its sign-in page, not the file: the bot token needs the files:read scope",
    );
  return Buffer.from(await res.arrayBuffer());
}
