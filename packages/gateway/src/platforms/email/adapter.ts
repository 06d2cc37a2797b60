// E-mail through imapflow and nodemailer (SPEC G1). In: the mailbox's unseen mail, then IDLE
// (started explicitly: imapflow would only idle by itself after ~15 s), fetched again on each new
// message. Fetched mail is collected first and only then parsed and marked \Seen (an IMAP
// command inside a `for await (fetch())` loop deadlocks). A mail is marked \Seen only after the
// runner has claimed it, so a dropped connection loses nothing: the next session fetches what is
// still unseen, and a copy seen twice has the same Message-ID, which the runner claims once.
// Out: SMTP, each reply in its thread (In-Reply-To, References, "Re: " subject).
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "@iris/llm";
import { ImapFlow } from "imapflow";
import { simpleParser } from "mailparser";
import { createTransport, type Transporter } from "nodemailer";
import type {
  AdapterHost,
  OutboundFile,
  PlatformAdapter,
  PlatformLimits,
  SendResult,
} from "../../adapter.js";
import type { ChatAddress, InboundMessage } from "../../message.js";
import { normaliseMail, type ParsedInbound, PLATFORM } from "./parse.js";
import { EmailThreads, replySubject } from "./threads.js";

export interface MailServer {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
  /** Where the password came from, for error messages. */
  passwordEnv: string;
}

export interface EmailOptions {
  address: string;
  name: string;
  imap: MailServer;
  smtp: MailServer;
  mailbox: string;
  maxAttachmentBytes: number;
  /** Where attachments and the thread file are kept. */
  filesDir: string;
  logger: Logger;
  /** The first reconnect delay (doubling to 30 s). */
  reconnectMs?: number;
}

const MAX_BACKOFF_MS = 30_000;

export class EmailAdapter implements PlatformAdapter {
  readonly platform = PLATFORM;
  readonly idempotentSend = false;
  readonly limits: PlatformLimits = {
    maxMessage: 50_000,
    measure: (t) => t.length,
    minEditIntervalMs: 0,
    // What most submission services take in one message (Gmail's and Outlook's limits are 25 MB
    // and 20 MB of encoded mail); base64 adds a third.
    maxFileBytes: 15 * 1024 * 1024,
  };
  private readonly smtp: Transporter;
  private readonly threads: EmailThreads;
  private client: ImapFlow | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private draining: Promise<void> | undefined;
  private again = false;

  constructor(private readonly opts: EmailOptions) {
    this.smtp = createTransport({
      host: opts.smtp.host,
      port: opts.smtp.port,
      secure: opts.smtp.secure,
      auth: { user: opts.smtp.user, pass: opts.smtp.password },
      connectionTimeout: 30_000,
      logger: false,
    });
    this.threads = new EmailThreads(join(opts.filesDir, "threads.json"));
  }

  botNames(): string[] {
    return [this.opts.name, this.opts.address];
  }

  async start(onMessage: (msg: InboundMessage) => void, host?: AdapterHost): Promise<void> {
    // The first connection must work: a wrong password fails the start, naming the variable.
    const first = await this.connect(onMessage).catch((err) => {
      throw new Error(`email: ${this.explain(err, "IMAP")}`);
    });
    await this.smtp.verify().catch((err) => {
      void first.logout().catch(() => {});
      throw new Error(`email: ${this.explain(err, "SMTP")}`);
    });
    this.loop = this.keepConnected(first, onMessage, host);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.client?.logout().catch(() => {});
    await this.loop;
    this.smtp.close();
  }

  send(to: ChatAddress, text: string): Promise<SendResult> {
    return this.mail(to, text);
  }

  /** The file as an attachment of a reply in the thread, the caption as its text. */
  sendFile(to: ChatAddress, file: OutboundFile): Promise<SendResult> {
    return this.mail(to, file.caption ?? `Attached: ${file.name}`, [
      { filename: file.name, content: file.data },
    ]);
  }

  private async mail(
    to: ChatAddress,
    text: string,
    attachments?: { filename: string; content: Buffer }[],
  ): Promise<SendResult> {
    const thread = this.threads.replyHeaders(to.threadId);
    const domain = this.opts.address.split("@")[1] ?? "localhost";
    const messageId = `<iris-${randomUUID()}@${domain}>`;
    await this.smtp.sendMail({
      from: { name: this.opts.name, address: this.opts.address },
      to: to.chatId.split(","),
      subject: replySubject(thread?.subject ?? ""),
      text,
      messageId,
      ...(attachments ? { attachments } : {}),
      ...(thread ? { inReplyTo: thread.inReplyTo, references: thread.references } : {}),
      // Marks the mail as the bot's own reply to a person (RFC 3834 asks replies to say so).
      headers: { "Auto-Submitted": "auto-replied" },
    });
    if (to.threadId && thread)
      this.threads.note(to.threadId, {
        subject: thread.subject,
        inReplyTo: messageId,
        references: [...thread.references, messageId],
      });
    return { messageId };
  }

  /** Reconnects (with backoff) whenever the connection closes, until stop(). */
  private async keepConnected(
    first: ImapFlow,
    onMessage: (msg: InboundMessage) => void,
    host?: AdapterHost,
  ): Promise<void> {
    let client: ImapFlow | undefined = first;
    let backoff = this.opts.reconnectMs ?? 1000;
    while (!this.stopping) {
      if (client) {
        host?.health?.("connected");
        backoff = this.opts.reconnectMs ?? 1000;
        const c = client;
        await new Promise<void>((resolve) => {
          if (!c.usable) return resolve();
          c.once("close", () => resolve());
        });
      }
      if (this.stopping) break;
      host?.health?.("degraded", "the IMAP connection was lost");
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, backoff);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      if (this.stopping) break;
      client = await this.connect(onMessage).catch((err) => {
        this.opts.logger.warn("email: IMAP reconnect failed", { error: this.explain(err, "IMAP") });
        return undefined;
      });
    }
  }

  /** One IMAP session: logged in, the mailbox open, what is unseen handed over, then IDLE. */
  private async connect(onMessage: (msg: InboundMessage) => void): Promise<ImapFlow> {
    const { imap } = this.opts;
    const client = new ImapFlow({
      host: imap.host,
      port: imap.port,
      secure: imap.secure,
      auth: { user: imap.user, pass: imap.password },
      logger: false,
      disableAutoIdle: true,
    });
    client.on("error", (err: Error) =>
      this.opts.logger.warn("email: IMAP connection error", { error: this.explain(err, "IMAP") }),
    );
    await client.connect();
    await client.mailboxOpen(this.opts.mailbox);
    this.client = client;
    client.on("exists", () => this.drain(client, onMessage));
    await this.drain(client, onMessage);
    return client;
  }

  /** Hands over every unseen mail, one pass at a time (a pass asked for meanwhile runs after). */
  private drain(client: ImapFlow, onMessage: (msg: InboundMessage) => void): Promise<void> {
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    this.draining = (async () => {
      do {
        this.again = false;
        await this.fetchUnseen(client, onMessage).catch((err) => {
          if (client.usable)
            this.opts.logger.warn("email: fetching new mail failed", { error: this.explain(err, "IMAP") });
        });
      } while (this.again && client.usable && !this.stopping);
    })().finally(() => {
      this.draining = undefined;
      // IDLE until the server says something changed (its "exists" breaks it off for the fetch).
      if (client.usable && !this.stopping) void client.idle().catch(() => {});
    });
    return this.draining;
  }

  private async fetchUnseen(client: ImapFlow, onMessage: (msg: InboundMessage) => void): Promise<void> {
    const uids = await client.search({ seen: false }, { uid: true });
    if (!uids || uids.length === 0) return;
    const fetched: { uid: number; source: Buffer }[] = [];
    for await (const m of client.fetch(uids, { uid: true, source: true }, { uid: true }))
      if (m.source) fetched.push({ uid: m.uid, source: m.source });
    const validity = String(client.mailbox ? client.mailbox.uidValidity : 0);
    for (const { uid, source } of fetched) {
      const parsed = normaliseMail(
        await simpleParser(source),
        this.opts.address,
        `<uid-${validity}-${uid}@imap>`,
      );
      if (parsed) {
        if (parsed.files.length) this.withFiles(parsed);
        if (parsed.msg.threadId) this.threads.note(parsed.msg.threadId, parsed.thread);
        onMessage(parsed.msg);
      }
      await client.messageFlagsAdd(String(uid), ["\\Seen"], { uid: true });
    }
  }

  /** Images go to the model with their bytes; every file is saved and named in the text. */
  private withFiles(p: ParsedInbound): void {
    const lines = [p.msg.text];
    for (const [i, f] of p.files.entries()) {
      const a = p.msg.attachments[i];
      if (!a) continue;
      if (f.content.length > this.opts.maxAttachmentBytes) {
        lines.push(
          `[${a.kind} attached: ${a.name} (not saved: ${f.content.length} bytes is over the limit)]`,
        );
        continue;
      }
      mkdirSync(this.opts.filesDir, { recursive: true, mode: 0o700 });
      const path = join(this.opts.filesDir, `${randomUUID().slice(0, 8)}-${safeName(a.name)}`);
      writeFileSync(path, f.content, { mode: 0o600 });
      a.url = path;
      if (a.kind === "image") a.data = f.content.toString("base64");
      lines.push(`[${a.kind} attached: ${a.name}, saved at ${path} (${f.content.length} bytes)]`);
    }
    p.msg.text = lines.filter((l) => l !== "").join("\n");
  }

  /** What went wrong, for a person: never a password. */
  private explain(err: unknown, side: "IMAP" | "SMTP"): string {
    const server = side === "IMAP" ? this.opts.imap : this.opts.smtp;
    const e = err as {
      authenticationFailed?: boolean;
      responseCode?: number;
      code?: string;
      message?: string;
    };
    let text =
      e?.authenticationFailed || e?.responseCode === 535 || e?.code === "EAUTH"
        ? `${side} login as ${server.user} was refused: check the password in ${server.passwordEnv}`
        : `${side} ${server.host}:${server.port}: ${e?.message ?? String(err)}`;
    if (server.password) text = text.split(server.password).join("<password>");
    return text;
  }
}

function safeName(name: string): string {
  return (
    name
      .replace(/[^0-9A-Za-z._-]/g, "_")
      .replace(/^\.+/, "")
      .slice(0, 100) || "file"
  );
}
