// Telegram through grammY (SPEC G1): long polling with grammY's own loop, which asks for the next
// batch only after every update of this one was handed over (and claimed in the store), so a
// killed gateway gets its unconfirmed updates again; pending updates are never dropped. Or, when
// configured, a webhook (webhook.ts) Telegram posts updates to. A 401 on any call (a token
// revoked in @BotFather) stops this adapter alone. Every call to a chat (sends, draft edits,
// typing, files) goes through one per-chat queue that keeps Telegram's pace and holds the chat
// for a 429's retry_after; @grammyjs/auto-retry retries the call itself after the wait. A reply
// streams as one message edited in place, which the delivered reply then becomes. Approvals carry
// inline buttons keyed by the request id.
import type { Server } from "node:http";
import { autoRetry } from "@grammyjs/auto-retry";
import { CHAT_COMMANDS } from "@iris/host";
import type { Logger } from "@iris/llm";
import { Bot, GrammyError, InputFile } from "grammy";
import type {
  AdapterHost,
  OutboundFile,
  PlatformAdapter,
  PlatformLimits,
  SendOptions,
  SendResult,
} from "../../adapter.js";
import type { ChatAddress, InboundMessage } from "../../message.js";
import { ChatQueue } from "../../pipeline/chat-queue.js";
import { utf16Length } from "../../pipeline/chunk.js";
import { EditedDrafts } from "../edited-drafts.js";
import { download, withSavedAttachments } from "../saved-attachments.js";
import type { Speech } from "../voice/speech.js";
import {
  approvalData,
  COMMAND_OF,
  FILE_URL,
  normaliseMessage,
  PLATFORM,
  parseApprovalData,
  type TgMessageLike,
} from "./normalise.js";
import { ALLOWED_UPDATES, portOf, startWebhook, type WebhookOptions } from "./webhook.js";

export interface TelegramOptions {
  token: string;
  /** Where the token came from, for error messages (the token itself is never shown). */
  tokenEnv: string;
  apiRoot?: string;
  pollTimeoutSeconds: number;
  /** Webhook mode instead of long polling. */
  webhook?: WebhookOptions;
  /** Where photos and documents sent to the bot are saved. */
  filesDir: string;
  logger: Logger;
  /** Voice notes transcribed in and spoken out (the `voice:` section). */
  speech?: Speech;
}

export const TELEGRAM_MAX_TEXT = 4096;
/** The Bot API's download limit. */
const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** The Bot API's upload limits: any file, and a photo (a larger picture goes as a document). */
const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
const MAX_CAPTION = 1024;

/** JPEG and PNG are shown as photos; anything else (and a photo Telegram refuses) as a document. */
const isPhoto = (data: Buffer) =>
  data.length <= MAX_PHOTO_BYTES &&
  (data.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])) ||
    data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])));

const chatKey = (to: ChatAddress) => (to.threadId ? `${to.chatId}/${to.threadId}` : to.chatId);
const thread = (to: ChatAddress) => (to.threadId ? { message_thread_id: Number(to.threadId) } : {});

export class TelegramAdapter implements PlatformAdapter {
  readonly platform = PLATFORM;
  readonly idempotentSend = false;
  readonly reportsHandOver = true;
  readonly limits: PlatformLimits = {
    maxMessage: TELEGRAM_MAX_TEXT,
    measure: utf16Length,
    minEditIntervalMs: 1000,
    // "typing…" lasts five seconds; the runner shows it again this often until the first token.
    typingRepeatMs: 4500,
    maxFileBytes: MAX_UPLOAD_BYTES,
  };
  private readonly bot: Bot;
  // About one message a second in a chat, twenty a minute in a group (Telegram's bot FAQ).
  private readonly queue = new ChatQueue({
    intervalMs: (chat) => (chat.startsWith("-") ? 3000 : 1000),
    retryAfterMs: (err) =>
      err instanceof GrammyError && err.error_code === 429 && typeof err.parameters.retry_after === "number"
        ? err.parameters.retry_after * 1000
        : undefined,
  });
  private readonly drafts = new EditedDrafts<number>(TELEGRAM_MAX_TEXT);
  private polling: Promise<void> | undefined;
  private webhook: Server | undefined;
  private host: AdapterHost | undefined;
  private started = false;
  /** Chats whose latest message was a voice note (answered with one too, SPEC G1). */
  private readonly voiceIn = new Set<string>();
  private stopping = false;

  constructor(private readonly opts: TelegramOptions) {
    this.bot = new Bot(opts.token, { client: { ...(opts.apiRoot ? { apiRoot: opts.apiRoot } : {}) } });
    // Waits longer than a minute are not slept through inside one call: the chat's queue holds them.
    // A network error is not retried here: an unreachable api_root fails the start at once, the
    // polling loop retries getUpdates itself, and the outbox's deliverer retries sends.
    this.bot.api.config.use(autoRetry({ maxRetryAttempts: 5, maxDelaySeconds: 60, rethrowHttpErrors: true }));
    // A token refused while running (revoked in @BotFather) stops the adapter, whichever call saw it.
    this.bot.api.config.use(async (prev, method, payload, signal) => {
      const res = await prev(method, payload, signal);
      if (!res.ok && res.error_code === 401 && this.started)
        this.died(
          `the bot token in ${this.opts.tokenEnv} was refused (401 Unauthorized): it is wrong or was revoked`,
        );
      return res;
    });
  }

  /** The webhook's port (webhook mode). */
  get webhookPort(): number | undefined {
    return portOf(this.webhook);
  }

  botNames(): string[] {
    return this.bot.isInited() ? [this.bot.botInfo.username] : [];
  }

  async start(onMessage: (msg: InboundMessage) => void, host?: AdapterHost): Promise<void> {
    const { bot } = this;
    this.host = host;
    try {
      await bot.init();
    } catch (err) {
      throw new Error(`telegram: ${this.explain(err)}`);
    }
    const me = { id: bot.botInfo.id, username: bot.botInfo.username };
    for (const w of this.opts.speech?.warnings() ?? []) {
      this.opts.logger.warn(w);
      host?.warn?.(w);
    }
    await bot.api
      .setMyCommands(
        CHAT_COMMANDS.filter((c) => c.surfaces.includes("gateway")).map((c) => ({
          command: c.name.slice(1),
          description: c.help.slice(0, 256),
        })),
      )
      .catch((err) =>
        this.opts.logger.warn("telegram commands not registered", { error: this.explain(err) }),
      );
    bot.on("message", async (ctx) => {
      const msg = normaliseMessage(ctx.message as TgMessageLike, me);
      if (!msg)
        return void this.opts.logger.warn("telegram message skipped", { update: ctx.update.update_id });
      if (msg.attachments.length) msg.text = await this.withFiles(msg);
      const k = chatKey(msg);
      if (msg.attachments.some((a) => a.kind === "audio")) this.voiceIn.add(k);
      else this.voiceIn.delete(k);
      onMessage(msg);
    });
    bot.on("callback_query:data", async (ctx) => {
      const q = ctx.callbackQuery;
      await ctx.answerCallbackQuery().catch(() => {});
      const action = parseApprovalData(q.data);
      const base = q.message
        ? normaliseMessage(
            { ...(q.message as TgMessageLike), from: q.from, text: action ? COMMAND_OF[action.answer] : "" },
            me,
          )
        : undefined;
      if (!action || !base) return void this.opts.logger.warn("telegram button skipped", { data: q.data });
      // The press answers in the chat (and topic) of the message it was under.
      onMessage({ ...base, messageId: `cb:${q.id}`, action, mentionsBot: true });
    });
    bot.catch((err) => this.opts.logger.warn("telegram update skipped", { error: this.explain(err.error) }));
    if (this.opts.webhook) {
      try {
        this.webhook = await startWebhook(bot, this.opts.webhook, this.opts.logger);
      } catch (err) {
        throw new Error(`telegram: ${this.explain(err)}`);
      }
      this.started = true;
      return;
    }
    this.started = true;
    this.polling = bot
      .start({
        drop_pending_updates: false,
        allowed_updates: ALLOWED_UPDATES,
        timeout: this.opts.pollTimeoutSeconds,
      })
      .catch((err) => this.died(this.explain(err)));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.bot.isRunning()) await this.bot.stop().catch(() => {});
    await this.polling;
    // The webhook stays set at Telegram: what comes while the gateway is down waits there.
    await new Promise<void>((resolve) => (this.webhook ? this.webhook.close(() => resolve()) : resolve()));
  }

  /** Stopped for good while running: the other platforms keep running, status says why. */
  private died(reason: string): void {
    if (this.stopping) return;
    this.stopping = true;
    this.host?.stopped?.(`telegram: ${reason}`);
    if (this.bot.isRunning()) void this.bot.stop().catch(() => {});
    this.webhook?.close();
  }

  send(to: ChatAddress, text: string, opts: SendOptions = {}): Promise<SendResult> {
    const k = chatKey(to);
    const markup = opts.buttons?.length
      ? {
          reply_markup: {
            inline_keyboard: [
              opts.buttons.map((b) => ({ text: b.label, callback_data: approvalData(b.action) })),
            ],
          },
        }
      : {};
    return this.queue
      .run(k, async () => {
        opts.handingOver?.();
        // The streamed draft becomes the reply's first part. An ask (buttons) is a message of its
        // own, since Telegram notifies of new messages only, never of edits: the draft (a status
        // such as "waiting for the model", or text the reply repeats) goes, and the turn's next
        // draft starts below the ask.
        const d = this.drafts.take(k);
        if (d?.messageId !== undefined && opts.buttons?.length)
          await this.bot.api.deleteMessage(Number(to.chatId), d.messageId).catch((err) => {
            this.opts.logger.warn("telegram draft not removed", { error: this.explain(err) });
          });
        else if (d?.messageId !== undefined) {
          if (d.shown !== text)
            await this.bot.api.editMessageText(Number(to.chatId), d.messageId, text, markup);
          return { messageId: String(d.messageId) };
        }
        const m = await this.bot.api.sendMessage(Number(to.chatId), text, { ...thread(to), ...markup });
        return { messageId: String(m.message_id) };
      })
      .then(async (r) => {
        if (!opts.buttons?.length) await this.sendVoice(to, text);
        return r;
      });
  }

  /** The answer spoken as a voice note too, where the chat asked for it; a failure is logged only. */
  private async sendVoice(to: ChatAddress, text: string): Promise<void> {
    const speech = this.opts.speech;
    if (!speech?.canSpeak) return;
    if (speech.config.reply_with_voice === "voice_in" && !this.voiceIn.has(chatKey(to))) return;
    try {
      const ogg = await speech.speak(text);
      await this.queue.run(chatKey(to), () =>
        this.bot.api.sendVoice(Number(to.chatId), new InputFile(ogg, "answer.ogg"), thread(to)),
      );
    } catch (err) {
      this.opts.logger.warn("telegram voice answer not sent", { error: this.explain(err) });
    }
  }

  /** A picture as a photo, anything else as a document, in the chat's topic. */
  sendFile(to: ChatAddress, file: OutboundFile, opts: SendOptions = {}): Promise<SendResult> {
    const chat = Number(to.chatId);
    const extra = { ...thread(to), ...(file.caption ? { caption: file.caption.slice(0, MAX_CAPTION) } : {}) };
    const document = () => this.bot.api.sendDocument(chat, new InputFile(file.data, file.name), extra);
    return this.queue.run(chatKey(to), async () => {
      opts.handingOver?.();
      const m = isPhoto(file.data)
        ? await this.bot.api.sendPhoto(chat, new InputFile(file.data, file.name), extra).catch((err) => {
            // PHOTO_INVALID_DIMENSIONS and the like: the same file still goes, as a document.
            if (err instanceof GrammyError && err.error_code === 400) return document();
            throw err;
          })
        : await document();
      return { messageId: String(m.message_id) };
    });
  }

  draft(to: ChatAddress, text: string): void {
    const k = chatKey(to);
    const draft = this.drafts.of(k);
    const chat = Number(to.chatId);
    this.queue
      .latest(k, "draft", () =>
        this.drafts.show(k, draft, text, {
          post: async (t) => (await this.bot.api.sendMessage(chat, t, thread(to))).message_id,
          edit: async (id, t) => void (await this.bot.api.editMessageText(chat, id, t)),
          remove: async (id) => void (await this.bot.api.deleteMessage(chat, id)),
        }),
      )
      .catch((err) => this.opts.logger.warn("telegram draft not shown", { error: this.explain(err) }));
  }

  async edit(to: ChatAddress, messageId: string, text: string): Promise<void> {
    await this.queue.run(chatKey(to), () =>
      this.bot.api.editMessageText(Number(to.chatId), Number(messageId), text.slice(0, TELEGRAM_MAX_TEXT)),
    );
  }

  /** Shows "typing…" once (it lapses by itself; the runner repeats it, SPEC G1). */
  typing(to: ChatAddress): void {
    void this.queue
      .latest(chatKey(to), "typing", () =>
        this.bot.api.sendChatAction(Number(to.chatId), "typing", thread(to)).then(() => {}),
      )
      .catch(() => {});
  }

  /** Downloads the message's files into the files folder and says where they are. */
  private withFiles(msg: InboundMessage): Promise<string> {
    return withSavedAttachments(msg, {
      dir: this.opts.filesDir,
      maxBytes: MAX_FILE_BYTES,
      fetch: async (a) => {
        const file = await this.bot.api.getFile((a.url ?? "").slice(FILE_URL.length));
        if (!file.file_path || (file.file_size ?? 0) > MAX_FILE_BYTES) throw new Error("larger than 20 MB");
        const root = this.opts.apiRoot ?? "https://api.telegram.org";
        return download(`${root}/file/bot${this.opts.token}/${file.file_path}`);
      },
      explain: (err) => this.explain(err),
      describe: (a, bytes, path) =>
        a.kind === "audio" ? this.transcribed(msg, bytes, a.name, path) : Promise.resolve(undefined),
    });
  }

  /** A voice note as text: its transcript (shown back when configured), else where it was saved. */
  private async transcribed(msg: InboundMessage, bytes: Buffer, name: string, path: string): Promise<string> {
    const speech = this.opts.speech;
    if (!speech?.canTranscribe)
      return `[voice note attached: ${name}, saved at ${path} (not transcribed: no voice.stt configured)]`;
    try {
      const text = await speech.transcribe(bytes, name);
      if (speech.config.show_transcript)
        await this.queue
          .run(chatKey(msg), () => this.bot.api.sendMessage(Number(msg.chatId), `🎤 ${text}`, thread(msg)))
          .catch(() => {});
      return text;
    } catch (err) {
      this.opts.logger.warn("telegram voice note not transcribed", { error: this.explain(err) });
      return `[voice note attached: ${name}, saved at ${path} (not transcribed: ${this.explain(err)})]`;
    }
  }

  /** What went wrong, for a person: never the token (a URL of the Bot API carries it). */
  private explain(err: unknown): string {
    let text: string;
    if (err instanceof GrammyError)
      text =
        err.error_code === 401
          ? `the bot token in ${this.opts.tokenEnv} was refused (401 Unauthorized): it is wrong or was revoked`
          : err.error_code === 409
            ? `another process polls this bot token (409 ${err.description})`
            : `${err.error_code} ${err.description}`;
    else text = err instanceof Error ? err.message : String(err);
    return text.split(this.opts.token).join("<token>");
  }
}
