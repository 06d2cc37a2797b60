// multipart/form-data as the fakes' services read it (file uploads to Telegram, Discord and
// Slack): grammY writes its part headers lower-case, without spaces and with an unquoted
// filename, which Telegram accepts, so this parser does too; undici (discord.js, @slack/web-api)
// writes them as the RFC does.
export interface UploadedFile {
  name: string;
  bytes: Buffer;
  /** The part's Content-Type, when it has one. */
  contentType?: string;
}

export function parseMultipart(body: Buffer, contentType: string): Record<string, string | UploadedFile> {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) throw new Error("multipart body without a boundary");
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Record<string, string | UploadedFile> = {};
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === "--") break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) throw new Error("multipart body not closed");
    const part = body.subarray(start + 2, next - 2); // after CRLF, before CRLF
    const split = part.indexOf("\r\n\r\n");
    if (split < 0) throw new Error("multipart part without headers");
    const head = part.subarray(0, split).toString("utf8");
    const content = part.subarray(split + 4);
    const disposition = head.split("\r\n").find((l) => /^content-disposition\s*:/i.test(l)) ?? "";
    const name = /\bname="?([^";]+)"?/i.exec(disposition)?.[1];
    if (!name) throw new Error("multipart part without a name");
    const filename = /\bfilename="?([^";]+)"?/i.exec(disposition)?.[1];
    const type = /^content-type\s*:\s*(.+)$/im.exec(head)?.[1]?.trim();
    parts[name] =
      filename !== undefined
        ? { name: filename, bytes: Buffer.from(content), ...(type ? { contentType: type } : {}) }
        : content.toString("utf8");
    at = next;
  }
  return parts;
}
