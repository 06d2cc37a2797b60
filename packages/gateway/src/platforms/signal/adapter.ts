// Signal through `signal-cli daemon --http` (SPEC G1). In: the SSE stream of GET
// /api/v1/events, reconnected with backoff when it drops (the daemon keeps what arrives
// meanwhile, and a repeated event carries the same author:timestamp id, which the runner claims
// once). A message the bot takes gets the ack reaction at once. Attachments are fetched by id
// (getAttachment); images go to the model, voice notes are transcribed. Out: JSON-RPC `send`
// (a voice answer as an OGG/Opus attachment), `sendTyping`. Signal has no idempotency key, so the
// runner's outbox keeps sends to once: `handingOver` marks the moment a part leaves.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "@iris/llm";
import type {
  AdapterHost,
  OutboundFile,
  PlatformAdapter,
  PlatformLimits,
  SendOptions,
  SendResult,
} from "../../adapter.js";
import type { ChatAddress, InboundMessage } from "../../message.js";
import { typeOfFile } from "../file-types.js";
import { type Speech, voiceNoteText } from "../voice/speech.js";
import type { SignalConfig } from "./config.js";
import { GROUP_PREFIX, normaliseEvent, PLATFORM, type SignalInbound } from "./normalise.js";
import { readEvents, rpc } from "./rpc.js";

export interface SignalOptions {
  config: SignalConfig;
  filesDir: string;
  logger: Logger;
  speech?: Speech;
}

const MAX_BACKOFF_MS = 30_000;
const MAX_FILE = 100 * 1024 * 1024;

export class SignalAdapter implements PlatformAdapter {
  readonly platform = PLATFORM;
  readonly idempotentSend = false;
  readonly reportsHandOver = true;
  // Signal turns a longer text into a "long text" attachment; 2000 stays a plain message.
  readonly limits: PlatformLimits = {
    maxMessage: 2000,
    measure: (t) => t.length,
    minEditIntervalMs: 0,
    maxFileBytes: MAX_FILE,
  };
  private readonly base: string;
  private abort: AbortController | undefined;
  private stopping = false;
  private loop: Promise<void> | undefined;
  /** Inbound events handled one after another, in the order they came. */
  private chain: Promise<void> = Promise.resolve();
  /** Timestamps of the bot's own sends (a linked device's sync of them is not a message). */
  private readonly ours = new Set<number>();
  /** Chats whose latest message was a voice note (answered with one too). */
  private readonly voiceIn = new Set<string>();

  constructor(private readonly opts: SignalOptions) {
    this.base = opts.config.url.replace(/\/+$/, "");
  }

  botNames(): string[] {
    return this.opts.config.names;
  }

  async start(onMessage: (msg: InboundMessage) => void, host?: AdapterHost): Promise<void> {
    for (const w of this.opts.speech?.warnings() ?? []) {
      this.opts.logger.warn(w);
      host?.warn?.(w);
    }
    const check = await fetch(`${this.base}/api/v1/check`, { signal: AbortSignal.timeout(10_000) }).catch(
      (err: Error) => {
        throw new Error(
          `signal: the signal-cli daemon at ${this.base} cannot be reached (${err.message}); start it with signal-cli -a ${this.opts.config.account} daemon --http`,
        );
      },
    );
    if (!check.ok) throw new Error(`signal: ${this.base}/api/v1/check answered HTTP ${check.status}`);
    this.stopping = false;
    let first = true;
    const opened = new Promise<void>((resolve) => {
      this.loop = this.listen(onMessage, host, () => {
        if (first) resolve();
        first = false;
      });
    });
    await Promise.race([opened, new Promise((r) => setTimeout(r, 5000))]);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.abort?.abort();
    await this.loop;
    await this.chain;
  }

  /** Reads the event stream until stop(), reconnecting with backoff. */
  private async listen(
    onMessage: (msg: InboundMessage) => void,
    host: AdapterHost | undefined,
    onOpen: () => void,
  ): Promise<void> {
    const url = `${this.base}/api/v1/events?account=${encodeURIComponent(this.opts.config.account)}`;
    let backoff = 250;
    while (!this.stopping) {
      this.abort = new AbortController();
      try {
        const res = await fetch(url, { signal: this.abort.signal, headers: { accept: "text/event-stream" } });
        if (!res.ok || !res.body) throw new Error(`the event stream answered HTTP ${res.status}`);
        host?.health?.("connected");
        onOpen();
        backoff = 250;
        await readEvents(res.body, (event, data) => {
          if (event !== "receive") return;
          let parsed: unknown;
          try {
            parsed = JSON.parse(data);
          } catch {
            return this.opts.logger.warn("signal: an event that is not JSON was skipped");
          }
          const inbound = normaliseEvent(parsed, { account: this.opts.config.account });
          if (!inbound || (inbound.fromOwner && this.ours.has(inbound.timestamp))) return;
          this.chain = this.chain.then(() =>
            this.receive(inbound, onMessage).catch((err) =>
              this.opts.logger.warn("signal: an inbound message failed", { error: String(err) }),
            ),
          );
        });
        if (!this.stopping) throw new Error("the event stream ended");
      } catch (err) {
        if (this.stopping) return;
        host?.health?.("degraded", `the signal-cli event stream dropped: ${(err as Error).message}`);
        // The wait ends early on stop(), which aborts this controller too.
        const pause = this.abort;
        await new Promise<void>((r) => {
          const t = setTimeout(r, backoff);
          const wake = () => {
            clearTimeout(t);
            r();
          };
          pause.signal.addEventListener("abort", wake, { once: true });
        });
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  private async receive(inbound: SignalInbound, onMessage: (msg: InboundMessage) => void): Promise<void> {
    const { msg } = inbound;
    const account = this.opts.config.account;
    const emoji = this.opts.config.ack_reaction;
    const named =
      msg.mentionsBot || this.botNames().some((n) => msg.text.toLowerCase().includes(n.toLowerCase()));
    if (emoji && !inbound.fromOwner && (msg.chatType === "dm" || named))
      await rpc(this.base, "sendReaction", {
        account,
        ...inbound.conversation,
        emoji,
        targetAuthor: inbound.author,
        targetTimestamp: inbound.timestamp,
      }).catch((err) => this.opts.logger.warn("signal: the ack reaction failed", { error: String(err) }));
    const lines = [msg.text];
    for (const [i, a] of msg.attachments.entries()) {
      const file = inbound.files[i];
      if (!file) continue;
      try {
        const got = (await rpc(this.base, "getAttachment", {
          account,
          id: file.id,
          ...inbound.conversation,
        })) as {
          data?: unknown;
        };
        if (typeof got?.data !== "string") throw new Error("getAttachment gave no data");
        const bytes = Buffer.from(got.data, "base64");
        if (bytes.length > MAX_FILE) throw new Error("larger than 100 MB");
        mkdirSync(this.opts.filesDir, { recursive: true, mode: 0o700 });
        const path = join(this.opts.filesDir, `${inbound.timestamp}-${a.name.replace(/[^\w.-]/g, "_")}`);
        writeFileSync(path, bytes, { mode: 0o600 });
        a.url = path;
        if (a.kind === "image") a.data = bytes.toString("base64");
        if (a.kind === "audio")
          lines.push(
            await voiceNoteText(this.opts.speech, { bytes, name: a.name, path }, (t) =>
              this.post(msg.chatId, { message: `🎤 ${t}` }).then(() => {}),
            ),
          );
        else lines.push(`[${a.kind} attached: ${a.name}, saved at ${path} (${bytes.length} bytes)]`);
      } catch (err) {
        lines.push(`[${a.kind} attached: ${a.name} (not downloaded: ${(err as Error).message})]`);
      }
    }
    msg.text = lines.filter((l) => l !== "").join("\n");
    if (msg.attachments.some((a) => a.kind === "audio")) this.voiceIn.add(msg.chatId);
    else this.voiceIn.delete(msg.chatId);
    onMessage(msg);
  }

  async send(to: ChatAddress, text: string, opts?: SendOptions): Promise<SendResult> {
    await opts?.handingOver?.();
    const timestamp = await this.post(to.chatId, { message: text });
    await this.sendVoice(to.chatId, text);
    return { messageId: String(timestamp) };
  }

  /** The file as an attachment (a data: URI, as signal-cli takes it), the caption as its text. */
  async sendFile(to: ChatAddress, file: OutboundFile, opts?: SendOptions): Promise<SendResult> {
    // `;` and `,` end the filename in a data: URI.
    const name = file.name.replace(/[;,]/g, "_");
    const uri = `data:${typeOfFile(file)};filename=${name};base64,${file.data.toString("base64")}`;
    await opts?.handingOver?.();
    const timestamp = await this.post(to.chatId, {
      ...(file.caption ? { message: file.caption.slice(0, this.limits.maxMessage) } : {}),
      attachments: [uri],
    });
    return { messageId: String(timestamp) };
  }

  async typing(to: ChatAddress): Promise<void> {
    await rpc(this.base, "sendTyping", { account: this.opts.config.account, ...this.target(to.chatId) });
  }

  /** The answer as a voice note too, where the chat asked for it; a failure is logged only. */
  private async sendVoice(chatId: string, text: string): Promise<void> {
    const speech = this.opts.speech;
    if (!speech?.canSpeak) return;
    if (speech.config.reply_with_voice === "voice_in" && !this.voiceIn.has(chatId)) return;
    try {
      const ogg = await speech.speak(text);
      await this.post(chatId, {
        attachments: [`data:audio/ogg;filename=answer.ogg;base64,${ogg.toString("base64")}`],
      });
    } catch (err) {
      this.opts.logger.warn("signal: the voice answer was not sent", { error: String(err) });
    }
  }

  private async post(chatId: string, body: Record<string, unknown>): Promise<number> {
    const result = (await rpc(this.base, "send", {
      account: this.opts.config.account,
      ...this.target(chatId),
      ...body,
    })) as { timestamp?: unknown };
    const ts = typeof result?.timestamp === "number" ? result.timestamp : Date.now();
    this.ours.add(ts);
    if (this.ours.size > 1000) this.ours.delete(this.ours.values().next().value as number);
    return ts;
  }

  private target(chatId: string): { recipient: string[] } | { groupId: string } {
    return chatId.startsWith(GROUP_PREFIX)
      ? { groupId: chatId.slice(GROUP_PREFIX.length) }
      : { recipient: [chatId] };
  }
}
