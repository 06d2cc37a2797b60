// IRC through irc-framework (issue 19 §6): channels are group chats, PRIVMSGs to the bot's nick
// are DMs. IRC has no message ids (unless the server sends IRCv3 `msgid` tags), no edits and no
// idempotent send; a line carries at most 512 bytes with the relay's prefix, so replies are cut
// at 350 UTF-8 bytes per line (irc-framework's own line limit) and every line goes out in order.
// Reconnects back off; a connection that stops answering pings is dropped and made again.
import { randomUUID } from "node:crypto";
import IRC from "irc-framework";
import type { PlatformAdapter, PlatformLimits, SendResult } from "../../adapter.js";
import type { ChatAddress, InboundMessage } from "../../message.js";
import { splitMessage, utf8Bytes } from "../../pipeline/chunk.js";
import { markdownToIrc } from "./irc-format.js";
import { ircIdentity } from "./irc-identity.js";
import { type IrcSasl, saslConnectOptions, saslFailure, saslMissingPassword } from "./sasl.js";

export interface IrcOptions {
  server: string;
  port: number;
  tls: boolean;
  nick: string;
  channels: readonly string[];
  /** Reconnect attempts before giving up (default: keep trying). */
  maxReconnects?: number;
  /** The bot's services login, made before it registers. */
  sasl?: IrcSasl | undefined;
}

export const IRC_LINE_BYTES = 350;

interface PrivmsgEvent {
  nick: string;
  ident?: string;
  hostname?: string;
  target: string;
  message: string;
  /** The sender's services account (irc-framework reads the IRCv3 `account` tag). */
  account?: string;
  tags?: Record<string, string>;
  type?: string;
}

export class IrcAdapter implements PlatformAdapter {
  readonly platform = "irc";
  readonly idempotentSend = false;
  readonly limits: PlatformLimits = {
    maxMessage: IRC_LINE_BYTES * 4,
    measure: utf8Bytes,
    minEditIntervalMs: 0,
  };
  private readonly client = new IRC.Client();
  private stopped = false;
  private retries = 0;
  private started = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: IrcOptions) {}

  render(markdown: string): string {
    return markdownToIrc(markdown);
  }

  botNames(): string[] {
    return [this.client.user?.nick ?? this.opts.nick];
  }

  start(onMessage: (msg: InboundMessage) => void): Promise<void> {
    const { client, opts } = this;
    client.on("privmsg", (e: PrivmsgEvent) => {
      if (e.type && e.type !== "privmsg") return;
      const me = this.botNames()[0] ?? opts.nick;
      const dm = e.target.toLowerCase() === me.toLowerCase();
      onMessage({
        platform: this.platform,
        chatType: dm ? "dm" : "group",
        chatId: dm ? e.nick : e.target,
        // The speaker is their nick, mask and account: a nick alone can be borrowed.
        userId: ircIdentity({
          nick: e.nick,
          ident: e.ident,
          hostname: e.hostname,
          account: e.account ?? e.tags?.account,
        }),
        userName: e.nick,
        text: e.message,
        attachments: [],
        messageId: e.tags?.msgid ?? `local-${randomUUID()}`,
      });
    });
    const missing = saslMissingPassword(opts.sasl);
    if (missing) return Promise.reject(new Error(missing));
    return new Promise((resolve, reject) => {
      let saslFailed: string | undefined;
      client.on("sasl failed", (e: { reason?: string; message?: string }) => {
        if (opts.sasl) saslFailed = saslFailure(opts.sasl, e);
      });
      const onClose = () =>
        reject(new Error(saslFailed ?? `IRC: could not connect to ${opts.server}:${opts.port}`));
      client.once("close", onClose);
      client.once("registered", () => {
        this.started = true;
        client.removeListener("close", onClose);
        for (const ch of opts.channels) client.join(ch);
        resolve();
      });
      // Joins are re-sent after every reconnect.
      client.on("registered", () => {
        this.retries = 0;
        if (this.stopped) return;
        for (const ch of opts.channels) client.join(ch);
      });
      // irc-framework gives up on a connection that closed within 5 s of registering, or after
      // its retries: never stay silently disconnected — connect again, backing off (1 s doubling
      // to 60 s, with jitter so many gateways do not storm a restarted server together).
      client.on("close", () => {
        if (this.stopped || !this.started) return;
        const wait =
          Math.min(60_000, 1000 * 2 ** Math.min(this.retries++, 6)) + Math.floor(Math.random() * 500);
        this.retryTimer = setTimeout(() => {
          if (!this.stopped) client.connect();
        }, wait);
        this.retryTimer.unref();
      });
      client.connect({
        host: opts.server,
        port: opts.port,
        tls: opts.tls,
        nick: opts.nick,
        username: opts.nick.slice(0, 9),
        gecos: "Iris",
        auto_reconnect: true,
        auto_reconnect_max_retries: opts.maxReconnects ?? 1_000_000,
        auto_reconnect_max_wait: 60_000,
        ping_interval: 30,
        ping_timeout: 120,
        message_max_length: IRC_LINE_BYTES,
        ...saslConnectOptions(opts.sasl),
      });
    });
  }

  async send(to: ChatAddress, text: string): Promise<SendResult> {
    if (!this.client.connected) throw new Error("IRC: not connected");
    // A reply's lines go out one PRIVMSG each, in order; IRC has no empty lines. A line over the
    // byte limit is cut here, between graphemes, so irc-framework never has to cut it.
    for (const line of text.split(/\r?\n/)) {
      if (line.trim() === "") continue;
      for (const part of splitMessage(line, IRC_LINE_BYTES, utf8Bytes)) this.client.say(to.chatId, part);
    }
    return {};
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    if (!this.client.connected) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, 2000);
      t.unref();
      this.client.once("close", () => {
        clearTimeout(t);
        resolve();
      });
      this.client.quit("bye");
    });
  }
}
