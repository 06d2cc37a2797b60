// The other side of the e-mail tests: a person's mail delivered into the bot's mailbox on a real
// Dovecot (IMAP APPEND, as a mail server's delivery agent would put it there), written as raw
// RFC 5322 with MIME parts for HTML and attachments.
import { randomUUID } from "node:crypto";
import { ImapFlow } from "imapflow";

export interface PeerMail {
  from: string;
  to: string[];
  cc?: string[];
  subject?: string;
  text?: string;
  html?: string;
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
  attachments?: { name: string; type: string; content: Buffer }[];
  headers?: Record<string, string>;
}

const b64 = (b: Buffer) => (b.toString("base64").match(/.{1,76}/g) ?? []).join("\r\n");
const word = (s: string) =>
  /^[\x20-\x7e]*$/.test(s) ? s : `=?UTF-8?B?${Buffer.from(s).toString("base64")}?=`;

/** The mail as raw bytes, and its Message-ID. */
export function rawMail(m: PeerMail): { raw: Buffer; messageId: string } {
  const messageId = m.messageId ?? `<${randomUUID()}@peer.example.test>`;
  const head = [
    `From: ${m.from}`,
    `To: ${m.to.join(", ")}`,
    ...(m.cc?.length ? [`Cc: ${m.cc.join(", ")}`] : []),
    ...(m.subject !== undefined ? [`Subject: ${word(m.subject)}`] : []),
    `Message-ID: ${messageId}`,
    ...(m.inReplyTo ? [`In-Reply-To: ${m.inReplyTo}`] : []),
    ...(m.references?.length ? [`References: ${m.references.join(" ")}`] : []),
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    ...Object.entries(m.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
  ];
  const parts: string[] = [];
  if (m.text !== undefined)
    parts.push(
      [
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: base64",
        "",
        b64(Buffer.from(m.text)),
      ].join("\r\n"),
    );
  if (m.html !== undefined)
    parts.push(
      [
        "Content-Type: text/html; charset=utf-8",
        "Content-Transfer-Encoding: base64",
        "",
        b64(Buffer.from(m.html)),
      ].join("\r\n"),
    );
  for (const a of m.attachments ?? [])
    parts.push(
      [
        `Content-Type: ${a.type}; name="${a.name}"`,
        `Content-Disposition: attachment; filename="${a.name}"`,
        "Content-Transfer-Encoding: base64",
        "",
        b64(a.content),
      ].join("\r\n"),
    );
  const boundary = `b-${randomUUID()}`;
  const body =
    parts.length === 1 && !m.attachments?.length
      ? (parts[0] ?? "")
      : [
          `Content-Type: multipart/mixed; boundary="${boundary}"`,
          "",
          ...parts.map((p) => `--${boundary}\r\n${p}`),
          `--${boundary}--`,
          "",
        ].join("\r\n");
  return { raw: Buffer.from(`${head.join("\r\n")}\r\n${body}\r\n`), messageId };
}

/** A connection to the bot's mailbox that delivers mail into it. */
export class MailDrop {
  private constructor(private readonly client: ImapFlow) {}

  static async open(host: string, port: number, user: string, pass: string): Promise<MailDrop> {
    const client = new ImapFlow({ host, port, secure: false, auth: { user, pass }, logger: false });
    client.on("error", () => {});
    await client.connect();
    return new MailDrop(client);
  }

  /** Delivers the mail (unseen) and gives its Message-ID. */
  async deliver(m: PeerMail | Buffer): Promise<string> {
    const { raw, messageId } = Buffer.isBuffer(m) ? { raw: m, messageId: "" } : rawMail(m);
    await this.client.append("INBOX", raw, []);
    return messageId;
  }

  async close(): Promise<void> {
    await this.client.logout().catch(() => {});
  }
}
