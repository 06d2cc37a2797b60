// The web chat (issue 19 §6): a page served by the gateway on loopback, behind the same adapter
// interface as IRC. A direct chat is the user's own (chat id = their name); `?room=NAME` is a
// group chat "#NAME" shared by everyone logged in, where the runner's mention filter applies.
// Everything the bot sends goes to the event streams (SSE) open on that chat; a page that was
// away gets the chat's history from the store when it connects again, so nothing sent while it
// was away is lost. Sends carry the outbox key, so a repeat shows once (idempotent send).
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { JsonDepthError, parseBoundedJson } from "@iris/llm";
import { z } from "zod";
import type { AdapterHost, PlatformAdapter, PlatformLimits, SendOptions, SendResult } from "../../adapter.js";
import type { ChatAddress, ChatType, InboundMessage } from "../../message.js";
import { utf16Length } from "../../pipeline/chunk.js";
import { loadSecret, WebchatAuth, type WebchatUserDirectory } from "./auth.js";
import { chatPage, loginPage } from "./page.js";
import { type PairReply, WebchatPairing } from "./pairing.js";
import { ChatStreams, type WebChat } from "./streams.js";
import { WebchatUsers } from "./users.js";

export interface WebchatOptions {
  host: string;
  port: number;
  botName: string;
  /** Where the cookie-signing secret is kept (mode 600); without it, a new one (logins end) each start. */
  secretFile?: string;
  /** Who holds which login token (default: the gateway's identities in the store). */
  users?: WebchatUserDirectory;
}

const MAX_BODY = 64 * 1024;
/** A message with pictures: four images of up to 6 MB of base64 each fit. */
const MAX_SEND_BODY = 25 * 1024 * 1024;
const sendSchema = z.strictObject({
  chat: z.union([z.literal(""), z.string().regex(/^#[\p{L}\p{N}_.-]{1,40}$/u)]),
  id: z.string().regex(/^[\w-]{8,64}$/),
  text: z.string().min(1).max(32_000),
  /** Pictures attached on the page, base64 (at most 4, each up to 6 MB of base64). */
  images: z
    .array(z.strictObject({ name: z.string().min(1).max(200), data: z.base64().max(6_000_000) }))
    .max(4)
    .optional(),
});
// `name` is accepted only to refuse a forged one clearly: the name comes from the token.
const loginSchema = z.strictObject({ token: z.string().max(200), name: z.string().max(64).optional() });
const pairSchema = z.strictObject({ name: z.string().max(64) });

export class WebchatAdapter implements PlatformAdapter {
  readonly platform = "webchat";
  readonly idempotentSend = true;
  readonly authenticated = true;
  readonly limits: PlatformLimits = { maxMessage: 16_000, measure: utf16Length, minEditIntervalMs: 250 };
  private auth: WebchatAuth | undefined;
  private pairing: WebchatPairing | undefined;
  private readonly streams = new ChatStreams();
  private server: Server | undefined;
  private onMessage: ((m: InboundMessage) => void) | undefined;
  private host: AdapterHost | undefined;

  constructor(private readonly opts: WebchatOptions) {}

  get url(): string {
    const port = (this.server?.address() as AddressInfo | null)?.port ?? this.opts.port;
    const host = this.opts.host.includes(":") ? `[${this.opts.host}]` : this.opts.host;
    return `http://${host}:${port}/`;
  }

  botNames(): string[] {
    return [this.opts.botName];
  }

  async start(onMessage: (msg: InboundMessage) => void, host?: AdapterHost): Promise<void> {
    this.onMessage = onMessage;
    this.host = host;
    const stored = host?.identities ? new WebchatUsers(host.identities) : undefined;
    const users = this.opts.users ?? stored;
    if (!users) throw new Error("web chat: no user directory (the store's gateway identities)");
    this.auth = new WebchatAuth(loadSecret(this.opts.secretFile), users);
    if (host?.pairing && stored) this.pairing = new WebchatPairing(host.pairing, stored);
    const server = createServer((req, res) => {
      this.route(req, res).catch((err) => {
        if (!res.headersSent) reply(res, 500, { error: String(err) });
        else res.destroy();
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", (err: NodeJS.ErrnoException) =>
        reject(new Error(`web chat: cannot listen on ${this.opts.host}:${this.opts.port} (${err.code})`)),
      );
      server.listen(this.opts.port, this.opts.host, () => resolve());
    });
  }

  async stop(): Promise<void> {
    this.onMessage = undefined;
    this.streams.closeAll();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  async send(to: ChatAddress, text: string, opts?: SendOptions): Promise<SendResult> {
    if (!opts?.key) {
      // A status line (tool progress): shown live, edited in place, never part of the history.
      const id = `st-${randomUUID()}`;
      this.streams.publish(to.chatId, { type: "status", id, text });
      return { messageId: id };
    }
    // An approval gets buttons that send the chat commands; in a room they name the bot, as the
    // mention filter asks. Only the asker's answer counts (the runner checks who answers).
    const lead = to.chatId.startsWith("#") ? `${this.opts.botName}: ` : "";
    const buttons = /^Approval needed: /.test(text)
      ? [
          { label: "Approve", text: `${lead}/approve` },
          { label: "Approve for this session", text: `${lead}/approve session` },
          { label: "Deny", text: `${lead}/deny` },
        ]
      : undefined;
    this.streams.publish(to.chatId, {
      type: "message",
      role: "assistant",
      key: opts.key,
      text,
      ...(buttons ? { buttons } : {}),
    });
    return { messageId: opts.key };
  }

  async edit(to: ChatAddress, messageId: string, text: string): Promise<void> {
    this.streams.publish(to.chatId, { type: "status", id: messageId, text });
  }

  draft(to: ChatAddress, text: string): void {
    this.streams.publish(to.chatId, { type: "draft", text });
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req.headers.host)) return reply(res, 421, { error: "unknown Host" });
    const url = new URL(req.url ?? "/", "http://webchat");
    const auth = this.auth;
    if (!auth) return reply(res, 503, { error: "the web chat is not started" });
    const user = await auth.user(req.headers.cookie);
    if (req.method === "GET" && url.pathname === "/") {
      const nonce = randomBytes(16).toString("base64");
      res.writeHead(user ? 200 : 401, {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src 'self' data:`,
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
      });
      res.end(user ? chatPage(nonce, user) : loginPage(nonce));
      return;
    }
    if (req.method === "POST" && url.pathname === "/login") {
      const body = await readJson(req, res, loginSchema);
      if (!body) return;
      if (!sameOrigin(req)) return reply(res, 403, { error: "cross-origin login refused" });
      const r = await auth.login(body.token, req.socket.remoteAddress ?? "unknown", body.name);
      if (!r.ok) return reply(res, r.status, { error: r.error });
      res.writeHead(204, { "set-cookie": r.cookie, "cache-control": "no-store" });
      res.end();
      return;
    }
    if (req.method === "POST" && (url.pathname === "/pair" || url.pathname === "/pair/claim")) {
      if (!sameOrigin(req)) return reply(res, 403, { error: "cross-origin pairing refused" });
      if (!this.pairing) return reply(res, 404, { error: "pairing is not available here" });
      if (url.pathname === "/pair/claim") return replyPair(res, await this.pairing.claim(req, auth));
      const body = await readJson(req, res, pairSchema);
      if (!body) return;
      return replyPair(res, await this.pairing.request(body.name, req));
    }
    if (!user)
      return reply(res, 401, {
        error: "log in with your token (iris gateway webchat add-user NAME makes one)",
      });
    if (req.method === "GET" && url.pathname === "/me") return reply(res, 200, { user });
    if (req.method === "GET" && url.pathname === "/events") {
      const chat = chatOf(url.searchParams.get("chat") ?? "", user);
      if (!chat) return reply(res, 400, { error: "chat: '' or '#room'" });
      const lines = await this.host?.history(
        { platform: this.platform, chatId: chat.chatId },
        chat.chatType,
        user,
      );
      this.streams.open(res, chat, lines ?? []);
      return;
    }
    if (req.method === "POST" && url.pathname === "/send") {
      if (!sameOrigin(req)) return reply(res, 403, { error: "cross-origin send refused" });
      const body = await readJson(req, res, sendSchema, MAX_SEND_BODY);
      if (!body) return;
      const chat = chatOf(body.chat, user);
      const deliver = this.onMessage;
      if (!chat || !deliver) return reply(res, 503, { error: "the gateway is stopping" });
      // The page's own id: a retried send is the same message, dropped by the runner's dedupe.
      deliver({
        platform: this.platform,
        chatType: chat.chatType,
        chatId: chat.chatId,
        userId: user,
        userName: user,
        text: body.text,
        attachments: (body.images ?? []).map((i) => ({ kind: "image" as const, name: i.name, data: i.data })),
        messageId: `${user}/${body.id}`,
      });
      this.streams.publish(chat.chatId, {
        type: "message",
        role: "user",
        key: body.id,
        text: body.text,
        user,
      });
      return reply(res, 202, { ok: true });
    }
    return reply(res, 404, { error: "not found" });
  }
}

/** Loopback names only: a page from a DNS-rebound name cannot reach the chat. */
function hostAllowed(host: string | undefined): boolean {
  const name = (host ?? "").replace(/:\d+$/, "");
  return name === "127.0.0.1" || name === "localhost" || name === "[::1]";
}

function chatOf(chat: string, user: string): WebChat | undefined {
  if (chat === "") return { chatType: "dm", chatId: user };
  return /^#[\p{L}\p{N}_.-]{1,40}$/u.test(chat) ? { chatType: "group" as ChatType, chatId: chat } : undefined;
}

/** Browsers send Origin on POST: a page from elsewhere cannot post as the user. */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  return origin === undefined || origin === `http://${req.headers.host}`;
}

function replyPair(res: ServerResponse, r: PairReply): void {
  if (r.cookies) res.setHeader("set-cookie", r.cookies);
  reply(res, r.status, r.body);
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

async function readJson<T>(
  req: IncomingMessage,
  res: ServerResponse,
  schema: z.ZodType<T>,
  maxBody = MAX_BODY,
): Promise<T | undefined> {
  if (!(req.headers["content-type"] ?? "").startsWith("application/json")) {
    reply(res, 415, { error: "send JSON (content-type: application/json)" });
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > maxBody) {
      reply(res, 413, { error: `body over ${maxBody} bytes` });
      return undefined;
    }
    chunks.push(c);
  }
  let raw: unknown;
  try {
    raw = parseBoundedJson(Buffer.concat(chunks).toString("utf8"));
  } catch (err) {
    if (err instanceof JsonDepthError) {
      reply(res, 400, { error: `body: ${err.message}` });
      return undefined;
    }
    reply(res, 400, { error: "body is not JSON" });
    return undefined;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    reply(res, 400, { error: `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}` });
    return undefined;
  }
  return parsed.data;
}
