// A fake Telegram Bot API server on 127.0.0.1 (core.telegram.org/bots/api), driven by the real
// client (grammY with `client.apiRoot`). As strict as Telegram where Iris depends on it:
// - getUpdates long-polls for `timeout` seconds; an update is confirmed (gone for good) once a
//   getUpdates call passes a higher `offset`, so a killed bot gets its unconfirmed updates again;
//   a second concurrent getUpdates for one token ends the first with 409 "Conflict: terminated by
//   other getUpdates request" (two pollers on one bot);
// - a wrong or revoked token gets 401 "Unauthorized"; an unknown method 404 "Not Found";
// - texts over 4096 characters, empty texts, unknown chats, threads and messages, unmodified
//   edits, bad buttons and bad commands are 400s with Telegram's descriptions;
// - `floodWait` answers the next calls with 429 and `parameters.retry_after`, and the fake records
//   every call's time, so a test can check nothing reached a chat before the wait was over;
// - webhook mode (webhook.ts): setWebhook, deleteWebhook, getWebhookInfo, and updates POSTed to
//   the webhook until it answers 2xx.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseMultipart } from "../multipart.js";
import { ApiError, type MethodState, methods } from "./methods.js";
import type { TgBotMessage, TgCall, TgChat, TgMessage, TgUpdate, TgUser } from "./types.js";
import { WebhookSender } from "./webhook.js";

export interface FakeTelegramOptions {
  token: string;
  botUsername?: string;
  /** How long a webhook delivery that failed waits before it is tried again (Telegram: longer). */
  webhookRetryMs?: number;
}

export interface UserMessage {
  chat: { id: number; type: TgChat["type"]; title?: string; forum?: boolean };
  from: { id: number; first_name: string; username?: string };
  text?: string;
  threadId?: number;
  /** The id of one of the bot's messages this one replies to. */
  replyTo?: number;
  /** Mark `@botname` in the text as a mention entity (as Telegram does). */
  mentionBot?: boolean;
  photo?: Buffer;
  document?: { name: string; bytes: Buffer };
  /** A voice note (OGG/Opus bytes), as the apps record them. */
  voice?: Buffer;
  caption?: string;
}

interface Poll {
  res: ServerResponse;
  offset: number;
  limit: number;
  timer: NodeJS.Timeout;
}

export class FakeTelegram {
  readonly calls: TgCall[] = [];
  private readonly updates: TgUpdate[] = [];
  private confirmed = 0;
  private nextUpdate = 1;
  private poll: Poll | undefined;
  private readonly floods: { method: string; retryAfter: number; left: number }[] = [];
  private token: string;
  private readonly state: MethodState;
  private readonly messageIds = new Map<number, number>();
  private lastUserMessage: TgMessage | undefined;
  /** Webhook mode's deliveries (its `url` is set while a webhook is). */
  readonly webhook: WebhookSender;

  private constructor(
    private readonly server: Server,
    opts: FakeTelegramOptions,
  ) {
    this.token = opts.token;
    this.webhook = new WebhookSender(
      () => this.updates.find((u) => u.update_id >= this.confirmed),
      (u) => this.updates.splice(this.updates.indexOf(u), 1),
      opts.webhookRetryMs ?? 500,
    );
    this.state = {
      chats: new Map(),
      botMessages: new Map(),
      nextMessageId: (chatId) => this.nextId(chatId),
      botUser: { id: 7000001, first_name: "Iris", username: opts.botUsername ?? "iris_test_bot" },
      callbacks: new Map(),
      commands: [],
      files: new Map(),
    };
  }

  static async start(opts: FakeTelegramOptions): Promise<FakeTelegram> {
    const server = createServer();
    const fake = new FakeTelegram(server, opts);
    server.on("request", (req, res) => void fake.route(req, res));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return fake;
  }

  /** What the adapter's `api_root` points at. */
  get apiRoot(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get botUsername(): string {
    return this.state.botUser.username;
  }

  /** The bot's messages in a chat (a topic when `threadId` is given), oldest first. */
  messages(chatId: number, threadId?: number): TgBotMessage[] {
    return [...this.state.botMessages.values()].filter(
      (m) => m.chatId === chatId && (threadId === undefined || m.threadId === threadId),
    );
  }

  get commands(): { command: string; description: string }[] {
    return this.state.commands;
  }

  /** Updates not yet confirmed by the bot. */
  get pendingUpdates(): number {
    return this.updates.filter((u) => u.update_id >= this.confirmed).length;
  }

  /** A user writes in a chat; returns the message's id. */
  send(m: UserMessage): number {
    const chat = this.chatFor(m.chat);
    if (m.threadId !== undefined) chat.topics.add(m.threadId);
    const from: TgUser = { ...m.from, is_bot: false };
    const text = m.mentionBot && m.text !== undefined ? `@${this.botUsername} ${m.text}` : m.text;
    const message: TgMessage = {
      message_id: this.nextId(chat.id),
      date: Math.floor(Date.now() / 1000),
      chat: {
        id: chat.id,
        type: chat.type,
        ...(chat.title ? { title: chat.title } : {}),
        ...(chat.is_forum ? { is_forum: true } : {}),
      },
      from,
      ...(m.threadId !== undefined ? { message_thread_id: m.threadId, is_topic_message: true } : {}),
      ...(text !== undefined ? { text } : {}),
      ...(m.mentionBot
        ? { entities: [{ type: "mention", offset: 0, length: this.botUsername.length + 1 }] }
        : {}),
      ...(m.caption !== undefined ? { caption: m.caption } : {}),
    };
    if (m.replyTo !== undefined) {
      const mine = this.state.botMessages.get(`${chat.id}:${m.replyTo}`);
      if (!mine) throw new Error(`no bot message ${m.replyTo} in chat ${chat.id}`);
      message.reply_to_message = {
        message_id: mine.messageId,
        date: message.date,
        chat: message.chat,
        from: { ...this.state.botUser, is_bot: true },
        text: mine.texts.at(-1) ?? "",
      };
    }
    if (m.photo) {
      const id = this.addFile("photos", "jpg", m.photo);
      message.photo = [
        { file_id: `${id}s`, file_unique_id: `${id}s`, width: 90, height: 90, file_size: 100 },
        { file_id: id, file_unique_id: id, width: 800, height: 600, file_size: m.photo.length },
      ];
      this.state.files.set(`${id}s`, { path: `photos/${id}s.jpg`, bytes: m.photo });
    }
    if (m.document) {
      const id = this.addFile("documents", m.document.name.split(".").at(-1) ?? "bin", m.document.bytes);
      message.document = {
        file_id: id,
        file_unique_id: id,
        file_name: m.document.name,
        file_size: m.document.bytes.length,
      };
    }
    if (m.voice) {
      const id = this.addFile("voice", "oga", m.voice);
      message.voice = {
        file_id: id,
        file_unique_id: id,
        duration: 2,
        mime_type: "audio/ogg",
        file_size: m.voice.length,
      };
    }
    this.lastUserMessage = message;
    this.push({ message });
    return message.message_id;
  }

  /** A user presses an inline button of a bot message; returns the callback query's id. */
  press(chatId: number, messageId: number, data: string, from: UserMessage["from"]): string {
    const m = this.state.botMessages.get(`${chatId}:${messageId}`);
    if (!m?.buttons.some((b) => b.data === data))
      throw new Error(`message ${messageId} has no button ${data}`);
    const chat = this.state.chats.get(chatId) as TgChat;
    const id = randomUUID();
    this.state.callbacks.set(id, { answered: false });
    this.push({
      callback_query: {
        id,
        from: { ...from, is_bot: false },
        chat_instance: String(chatId),
        data,
        message: {
          message_id: messageId,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chat.id, type: chat.type },
          from: { ...this.state.botUser, is_bot: true },
          ...(m.threadId !== undefined ? { message_thread_id: m.threadId, is_topic_message: true } : {}),
          text: m.texts.at(-1) ?? "",
        },
      },
    });
    return id;
  }

  /** The last user message comes again in a new update (a redelivery: same chat and message id). */
  redeliverLast(): void {
    if (!this.lastUserMessage) throw new Error("no message to redeliver");
    this.push({ message: this.lastUserMessage });
  }

  /** A raw update, as Telegram might send it (malformed ones included). */
  pushRaw(update: Record<string, unknown>): void {
    this.push({ ...(update as object), update_id: this.nextUpdate++ } as TgUpdate);
  }

  callbackAnswered(id: string): boolean {
    return this.state.callbacks.get(id)?.answered ?? false;
  }

  /** The next `count` calls of `method` ("*": any but getUpdates) get 429 retry_after. */
  floodWait(method: string, retryAfterSeconds: number, count = 1): void {
    this.floods.push({ method, retryAfter: retryAfterSeconds, left: count });
  }

  /** The token stops working (revoked in @BotFather): every call gets 401. */
  revokeToken(): void {
    this.token = `revoked-${randomUUID()}`;
    this.endPoll(401, "Unauthorized");
    this.webhook.clear();
  }

  async close(): Promise<void> {
    this.webhook.clear();
    this.endPoll(502, "Bad Gateway");
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private nextId(chatId: number): number {
    const n = (this.messageIds.get(chatId) ?? 0) + 1;
    this.messageIds.set(chatId, n);
    return n;
  }

  private addFile(folder: string, ext: string, bytes: Buffer): string {
    const id = `F${randomUUID().replaceAll("-", "")}`;
    this.state.files.set(id, { path: `${folder}/${id}.${ext}`, bytes });
    return id;
  }

  private chatFor(c: UserMessage["chat"]) {
    let chat = this.state.chats.get(c.id);
    if (!chat) {
      chat = {
        id: c.id,
        type: c.type,
        ...(c.title ? { title: c.title } : {}),
        ...(c.forum ? { is_forum: true } : {}),
        topics: new Set(),
      };
      this.state.chats.set(c.id, chat);
    }
    return chat;
  }

  private push(u: Omit<TgUpdate, "update_id"> & { update_id?: number }): void {
    this.updates.push({ ...u, update_id: u.update_id ?? this.nextUpdate++ } as TgUpdate);
    this.answerPoll();
    this.webhook.kick();
  }

  private answerPoll(): void {
    const p = this.poll;
    if (!p) return;
    const ready = this.updates.filter((u) => u.update_id >= p.offset).slice(0, p.limit);
    if (ready.length === 0) return;
    this.poll = undefined;
    clearTimeout(p.timer);
    json(p.res, 200, { ok: true, result: ready });
  }

  private endPoll(code: number, description: string): void {
    const p = this.poll;
    if (!p) return;
    this.poll = undefined;
    clearTimeout(p.timer);
    json(p.res, code, { ok: false, error_code: code, description });
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://x");
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (file && req.method === "GET") {
      const f = [...this.state.files.values()].find((x) => x.path === file[2]);
      if (file[1] !== this.token || !f)
        return void json(res, 404, { ok: false, error_code: 404, description: "Not Found" });
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": f.bytes.length });
      return void res.end(f.bytes);
    }
    const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    const method = m?.[2] ?? "";
    let params: Record<string, unknown>;
    try {
      params = { ...Object.fromEntries(url.searchParams), ...(await body(req)) };
    } catch (err) {
      return void json(res, 400, { ok: false, error_code: 400, description: `Bad Request: ${String(err)}` });
    }
    const call: TgCall = { method, at: Date.now(), params, status: 200 };
    this.calls.push(call);
    const fail = (e: ApiError) => {
      call.status = e.code;
      json(res, e.code, {
        ok: false,
        error_code: e.code,
        description: e.description,
        ...(e.parameters ? { parameters: e.parameters } : {}),
      });
    };
    if (!m || m[1] !== this.token) return fail(new ApiError(m ? 401 : 404, m ? "Unauthorized" : "Not Found"));
    const flood = this.floods.find(
      (f) => f.left > 0 && (f.method === method || (f.method === "*" && method !== "getUpdates")),
    );
    if (flood) {
      flood.left--;
      return fail(
        new ApiError(429, `Too Many Requests: retry after ${flood.retryAfter}`, {
          retry_after: flood.retryAfter,
        }),
      );
    }
    if (method === "getUpdates" && this.webhook.url)
      return fail(
        new ApiError(
          409,
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
        ),
      );
    if (method === "getUpdates") return this.getUpdates(params, res);
    if (method === "setWebhook" || method === "deleteWebhook") {
      // deleteWebhook is setWebhook with an empty URL, as in the Bot API.
      const refused = this.webhook.set(method === "setWebhook" ? params : { url: "" });
      if (refused) return fail(new ApiError(refused.code, refused.description));
      if (String(params.drop_pending_updates) === "true") this.updates.length = 0;
      return void json(res, 200, { ok: true, result: true });
    }
    if (method === "getWebhookInfo")
      return void json(res, 200, { ok: true, result: this.webhook.info(this.pendingUpdates) });
    const impl = methods[method];
    if (!impl) return fail(new ApiError(404, "Not Found"));
    try {
      json(res, 200, { ok: true, result: impl(this.state, params) });
    } catch (err) {
      if (err instanceof ApiError) return fail(err);
      throw err;
    }
  }

  private getUpdates(p: Record<string, unknown>, res: ServerResponse): void {
    const offset = Number(p.offset ?? 0);
    const limit = Math.min(100, Math.max(1, Number(p.limit ?? 100)));
    const timeout = Math.max(0, Number(p.timeout ?? 0));
    // A higher offset confirms every update below it: they are gone for good.
    if (offset > this.confirmed) {
      this.confirmed = offset;
      this.updates.splice(0, this.updates.length, ...this.updates.filter((u) => u.update_id >= offset));
    }
    this.endPoll(
      409,
      "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
    );
    const ready = this.updates.filter((u) => u.update_id >= offset).slice(0, limit);
    if (ready.length || timeout === 0) return void json(res, 200, { ok: true, result: ready });
    const timer = setTimeout(() => {
      if (this.poll?.res !== res) return;
      this.poll = undefined;
      json(res, 200, { ok: true, result: [] });
    }, timeout * 1000);
    timer.unref();
    this.poll = { res, offset, limit, timer };
    res.on("close", () => {
      if (this.poll?.res === res) {
        clearTimeout(timer);
        this.poll = undefined;
      }
    });
  }
}

function json(res: ServerResponse, status: number, value: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  const text = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const bytes = Buffer.concat(chunks);
  const raw = bytes.toString("utf8");
  if (!raw) return {};
  const type = req.headers["content-type"] ?? "";
  // File uploads (sendVoice): fields as strings, files as UploadedFile.
  if (type.startsWith("multipart/form-data")) return parseMultipart(bytes, type);
  if (type.startsWith("application/json")) {
    const v = JSON.parse(raw) as unknown;
    if (typeof v !== "object" || v === null || Array.isArray(v))
      throw new Error("the request body is not a JSON object");
    return v as Record<string, unknown>;
  }
  if (type.startsWith("application/x-www-form-urlencoded"))
    return Object.fromEntries(new URLSearchParams(raw));
  throw new Error(`unsupported content type ${type}`);
}
