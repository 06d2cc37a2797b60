// A fake Slack on 127.0.0.1: the Web API (web-api.ts) under /api/ and Socket Mode's WebSocket on
// the same port, driven by the real client (@slack/bolt with `clientOptions.slackApiUrl` pointed
// here); or, for the HTTP Events API, signed POSTs to the app's own request URL. As strict as
// Slack where Iris depends on it:
// - Socket Mode: apps.connections.open (app token only) hands out a one-use `ws://…/link/?ticket=`
//   URL; the socket says `hello`, pings, and wants each envelope acked (`{envelope_id}`) within
//   `ackTimeoutMs` (Slack: 3 s), else it delivers it again with `retry_attempt` + 1 (three times);
//   envelopes for a disconnected app wait for its next connection;
// - HTTP: each delivery is signed (`x-slack-signature`, `x-slack-request-timestamp`) and a
//   non-2xx or slow answer is retried with `x-slack-retry-num` and `x-slack-retry-reason`;
// - the Web API wants the right kind of token; `rateLimit` answers the next calls to a method
//   with HTTP 429 and `Retry-After`, and every call's time is recorded;
// - faults: `dropConnections` (no close frame), `sendDisconnect` (Slack's `disconnect` message),
//   `revokeToken` (the app uninstalled: token_revoked, invalid_auth for apps.connections.open);
// - files (files.ts): the upload flow's upload_url and users' files' url_private_download are
//   served here too.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocket, WebSocketServer } from "ws";
import { blockActions, eventCallback, mentionEvent, messageEvent, signature } from "./events.js";
import { newFileId, receiveUpload, serveFile } from "./files.js";
import type { SlackCall, SlackConversation, SlackFile, SlackMessage } from "./types.js";
import { callMethod, parseParams, SlackError, type WebApiState } from "./web-api.js";

export interface FakeSlackOptions {
  botToken: string;
  appToken?: string;
  /** Signs HTTP deliveries (the app's signing secret). */
  signingSecret?: string;
  botName?: string;
  /** How long an envelope may go unacked before Slack delivers it again (Slack: 3 s). */
  ackTimeoutMs?: number;
  /** How often the socket is pinged. */
  pingIntervalMs?: number;
}

export interface SlackUserMessage {
  channel: string;
  user: string;
  text: string;
  threadTs?: string;
  /** Put `<@BOT>` before the text (as Slack's client does for an @-mention). */
  mentionBot?: boolean;
  /** Files shared with the message (a `file_share` message). */
  files?: { name: string; mimetype: string; bytes: Buffer }[];
}

interface Envelope {
  id: string;
  type: "events_api" | "interactive";
  payload: Record<string, unknown>;
  retry: number;
  timer?: NodeJS.Timeout;
}

export class FakeSlack {
  readonly calls: SlackCall[] = [];
  /** Socket Mode connections opened (a reconnect storm shows up here). */
  connections = 0;
  /** Envelopes delivered more than once (not acked in time). */
  redeliveries = 0;
  private readonly state: WebApiState;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly tickets = new Set<string>();
  private sockets: WebSocket[] = [];
  private readonly pending = new Map<string, Envelope>();
  private readonly limits: { method: RegExp; retryAfter: number; left: number }[] = [];
  private requestUrl: string | undefined;
  private lastEnvelope: Envelope | undefined;
  private serial = 0;
  private lastSecond = 0;

  private constructor(
    private readonly server: Server,
    private readonly opts: FakeSlackOptions,
  ) {
    this.state = {
      botToken: opts.botToken,
      appToken: opts.appToken ?? "",
      revoked: false,
      team: { id: "T0FAKE0001", name: "iris-test" },
      bot: { userId: "U0BOT00001", botId: "B0BOT00001", name: opts.botName ?? "iris" },
      appId: "A0APP00001",
      users: new Map(),
      conversations: new Map(),
      messages: new Map(),
      nextTs: () => this.nextTs(),
      socketUrl: (host) => {
        const ticket = randomBytes(8).toString("hex");
        this.tickets.add(ticket);
        return `ws://${host ?? `127.0.0.1:${this.port}`}/link/?ticket=${ticket}&app_id=${this.state.appId}`;
      },
      files: { uploads: new Map(), shared: new Map() },
      uploadUrl: (host, id) => `http://${host ?? `127.0.0.1:${this.port}`}/upload/v1/${id}`,
      statuses: new Map(),
    };
  }

  static async start(opts: FakeSlackOptions): Promise<FakeSlack> {
    const server = createServer();
    const fake = new FakeSlack(server, opts);
    server.on("request", (req, res) => void fake.onRequest(req, res));
    server.on("upgrade", (req, socket, head) => {
      const ticket = new URL(req.url ?? "/", "http://x").searchParams.get("ticket") ?? "";
      if (!fake.tickets.delete(ticket)) {
        socket.end("HTTP/1.1 401 Unauthorized\r\n\r\n");
        return;
      }
      fake.wss.handleUpgrade(req, socket, head, (ws) => fake.onConnection(ws));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return fake;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** What the adapter's `api_url` points at (@slack/web-api's `slackApiUrl`). */
  get apiUrl(): string {
    return `http://127.0.0.1:${this.port}/api/`;
  }

  get bot(): { userId: string; name: string } {
    return { userId: this.state.bot.userId, name: this.state.bot.name };
  }

  addUser(name: string): string {
    const id = `U${String(this.state.users.size + 2).padStart(9, "0")}`;
    this.state.users.set(id, name);
    return id;
  }

  /** The bot's DM with `user`. */
  dm(user: string): string {
    const id = `D${user.slice(1)}`;
    if (!this.state.conversations.has(id)) this.state.conversations.set(id, { id, kind: "im", user });
    return id;
  }

  /** A public channel the bot is in. */
  addChannel(name: string): string {
    const id = `C${String(this.state.conversations.size + 1).padStart(9, "0")}`;
    this.state.conversations.set(id, { id, kind: "channel", name });
    return id;
  }

  /** Every message in a conversation (users' and the bot's), oldest first. */
  messages(channel: string): readonly SlackMessage[] {
    return this.state.messages.get(channel) ?? [];
  }

  /** The bot's messages in a conversation that are still there. */
  botMessages(channel: string): SlackMessage[] {
    return this.messages(channel).filter((m) => m.user === this.state.bot.userId && !m.deleted);
  }

  /** Envelopes delivered and not acked yet (Slack delivers them again after `ackTimeoutMs`). */
  get unacked(): number {
    return this.pending.size;
  }

  /** The status lines set in a thread, in order ("" cleared it). */
  statuses(channel: string, threadTs: string): readonly string[] {
    return this.state.statuses.get(`${channel}:${threadTs}`) ?? [];
  }

  /** Deliveries go to `url` as signed HTTP POSTs (the Events API) instead of the socket. */
  deliverTo(url: string | undefined): void {
    this.requestUrl = url;
  }

  /** A user writes in a conversation: its `message` event (and `app_mention`) are delivered. */
  send(msg: SlackUserMessage): string {
    const c = this.conversation(msg.channel);
    const text = msg.mentionBot ? `<@${this.state.bot.userId}> ${msg.text}` : msg.text;
    const files: SlackFile[] | undefined = msg.files?.map((f) => ({ id: newFileId(), ...f }));
    for (const f of files ?? []) this.state.files.shared.set(f.id, f);
    const m: SlackMessage = {
      channel: c.id,
      ts: this.nextTs(),
      user: msg.user,
      texts: [text],
      ...(msg.threadTs ? { threadTs: msg.threadTs } : {}),
      buttons: [],
      ...(files ? { files } : {}),
      deleted: false,
    };
    this.state.messages.set(c.id, [...this.messages(c.id), m]);
    const { team, appId, bot } = this.state;
    const origin = `http://127.0.0.1:${this.port}`;
    const event = messageEvent(m, team, c.kind, origin);
    this.enqueue("events_api", eventCallback(team, appId, bot.userId, event));
    if (c.kind === "channel" && text.includes(`<@${bot.userId}>`))
      this.enqueue("events_api", eventCallback(team, appId, bot.userId, mentionEvent(m, team, origin)));
    return m.ts;
  }

  /** A user presses button `actionId` under the bot's message `ts` (it must be there). */
  press(channel: string, ts: string, actionId: string, user: string): void {
    const m = this.messages(channel).find((x) => x.ts === ts && !x.deleted);
    const button = m?.buttons.find((b) => b.actionId === actionId);
    if (!m || !button) throw new Error(`no button ${actionId} under message ${ts} in ${channel}`);
    const who = { id: user, name: this.state.users.get(user) ?? user };
    this.enqueue("interactive", blockActions(this.state.team, this.state.appId, who, m, button));
  }

  /** The last envelope again, as Slack's retry of it (same event_id, retry_attempt + 1). */
  redeliverLast(): void {
    const e = this.lastEnvelope;
    if (!e) throw new Error("nothing delivered yet");
    this.deliver({ ...e, retry: e.retry + 1, timer: undefined });
  }

  /** Delivers an Events API envelope with `payload` as given, however wrong its shape. */
  pushRaw(payload: Record<string, unknown>): void {
    this.enqueue("events_api", payload);
  }

  /** POSTs `body` to the request URL with a signature of the caller's choosing; the status. */
  async postRaw(body: string, headers: Record<string, string>): Promise<number> {
    if (!this.requestUrl) throw new Error("no request URL (deliverTo)");
    const res = await fetch(this.requestUrl, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });
    await res.text();
    return res.status;
  }

  /** A signed Events API body as Slack would post it (for tests that alter one part). */
  signedEvent(
    text: string,
    channel: string,
    user: string,
  ): { body: string; headers: Record<string, string> } {
    const c = this.conversation(channel);
    const m: SlackMessage = { channel, ts: this.nextTs(), user, texts: [text], buttons: [], deleted: false };
    const { team, appId, bot } = this.state;
    const body = JSON.stringify(eventCallback(team, appId, bot.userId, messageEvent(m, team, c.kind)));
    const ts = String(Math.floor(Date.now() / 1000));
    return { body, headers: this.signHeaders(ts, body) };
  }

  /** The next `count` calls to methods matching `method` get 429 with Retry-After. */
  rateLimit(method: RegExp, count: number, retryAfterSeconds: number): void {
    this.limits.push({ method, retryAfter: retryAfterSeconds, left: count });
  }

  /** The app is uninstalled: its tokens stop working and its sockets are closed. */
  revokeToken(): void {
    this.state.revoked = true;
    for (const ws of this.sockets) ws.close(1000, "link_disabled");
  }

  /** Cuts every socket without a close frame (the app sees 1006). */
  dropConnections(): void {
    for (const ws of this.sockets) ws.terminate();
    this.sockets = [];
  }

  /** Slack's `disconnect` message (it is recycling the connection): the app must reconnect. */
  sendDisconnect(reason = "refresh_requested"): void {
    for (const ws of this.sockets)
      ws.send(JSON.stringify({ type: "disconnect", reason, debug_info: { host: "fake-slack" } }));
  }

  async close(): Promise<void> {
    for (const e of this.pending.values()) clearTimeout(e.timer);
    this.pending.clear();
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private conversation(id: string): SlackConversation {
    const c = this.state.conversations.get(id);
    if (!c) throw new Error(`no conversation ${id}`);
    return c;
  }

  /** Slack's ts: seconds and a six-digit serial, unique and increasing in the workspace. */
  private nextTs(): string {
    const s = Math.max(Math.floor(Date.now() / 1000), this.lastSecond);
    if (s !== this.lastSecond) this.serial = 0;
    this.lastSecond = s;
    if (++this.serial > 999_999) {
      this.lastSecond++;
      this.serial = 1;
    }
    return `${this.lastSecond}.${String(this.serial).padStart(6, "0")}`;
  }

  private signHeaders(ts: string, body: string): Record<string, string> {
    return {
      "x-slack-request-timestamp": ts,
      "x-slack-signature": signature(this.opts.signingSecret ?? "", ts, body),
    };
  }

  private enqueue(type: Envelope["type"], payload: Record<string, unknown>): void {
    this.deliver({ id: randomBytes(12).toString("hex"), type, payload, retry: 0 });
  }

  private deliver(e: Envelope): void {
    this.lastEnvelope = e;
    clearTimeout(this.pending.get(e.id)?.timer);
    this.pending.set(e.id, e);
    if (e.retry > 0) this.redeliveries++;
    if (this.requestUrl) void this.post(e, this.requestUrl);
    else this.sockets.at(-1)?.send(this.frame(e));
    if (e.retry < 3)
      e.timer = setTimeout(() => {
        if (this.pending.get(e.id) === e && (this.requestUrl || this.sockets.length > 0))
          this.deliver({ ...e, retry: e.retry + 1, timer: undefined });
      }, this.opts.ackTimeoutMs ?? 3000);
  }

  private frame(e: Envelope): string {
    return JSON.stringify({
      envelope_id: e.id,
      payload: e.payload,
      type: e.type,
      accepts_response_payload: false,
      ...(e.type === "events_api" ? { retry_attempt: e.retry, retry_reason: e.retry ? "timeout" : "" } : {}),
    });
  }

  private async post(e: Envelope, url: string): Promise<void> {
    const json = JSON.stringify(e.payload);
    const body = e.type === "interactive" ? new URLSearchParams({ payload: json }).toString() : json;
    const type = e.type === "interactive" ? "application/x-www-form-urlencoded" : "application/json";
    const retry: Record<string, string> = e.retry
      ? { "x-slack-retry-num": String(e.retry), "x-slack-retry-reason": "http_timeout" }
      : {};
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": type,
          ...this.signHeaders(String(Math.floor(Date.now() / 1000)), body),
          ...retry,
        },
        body,
        signal: AbortSignal.timeout(this.opts.ackTimeoutMs ?? 3000),
      });
      await res.text();
      if (res.ok && this.pending.get(e.id) === e) {
        clearTimeout(e.timer);
        this.pending.delete(e.id);
      }
    } catch {
      // unreachable or slow: the timer delivers it again
    }
  }

  private onConnection(ws: WebSocket): void {
    this.connections++;
    this.sockets.push(ws);
    ws.send(
      JSON.stringify({
        type: "hello",
        num_connections: this.sockets.length,
        debug_info: { host: "fake-slack", build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: this.state.appId },
      }),
    );
    const ping = setInterval(() => ws.ping(), this.opts.pingIntervalMs ?? 5000);
    ws.on("message", (data) => {
      let ack: { envelope_id?: unknown };
      try {
        ack = JSON.parse(String(data)) as { envelope_id?: unknown };
      } catch {
        return;
      }
      const e = typeof ack.envelope_id === "string" ? this.pending.get(ack.envelope_id) : undefined;
      if (!e) return;
      clearTimeout(e.timer);
      this.pending.delete(e.id);
    });
    ws.on("close", () => {
      clearInterval(ping);
      this.sockets = this.sockets.filter((s) => s !== ws);
    });
    // Envelopes that waited for a connection (Slack retries them when the app is back).
    for (const e of [...this.pending.values()]) if (ws.readyState === WebSocket.OPEN) ws.send(this.frame(e));
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const body = raw.toString("utf8");
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const upload = /^\/upload\/v1\/(F\w+)$/.exec(path)?.[1];
    if (upload && req.method === "POST") {
      const status = receiveUpload(this.state.files, upload, raw, req.headers["content-type"] ?? "");
      res.writeHead(status, { "content-type": "text/plain" });
      return void res.end(status === 200 ? `OK - ${raw.length}` : "upload refused");
    }
    const file = /^\/files-pri\/\w+-(F\w+)\/download\/[^/]+$/.exec(path)?.[1];
    if (file && req.method === "GET") {
      const authorised = req.headers.authorization === `Bearer ${this.state.botToken}` && !this.state.revoked;
      const r = serveFile(this.state.files, file, authorised);
      res.writeHead(r.status, { "content-type": r.type });
      return void res.end(r.body);
    }
    const method = /^\/api\/([\w.]+)$/.exec(path)?.[1];
    const answer = (status: number, json: Record<string, unknown>, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
      res.end(JSON.stringify(json));
    };
    if (req.method !== "POST" || !method) return answer(404, { ok: false, error: "unknown_method" });
    let params: Record<string, unknown>;
    try {
      params = parseParams(req.headers["content-type"], body);
    } catch {
      return answer(200, { ok: false, error: "invalid_json" });
    }
    const channel = typeof params.channel === "string" ? params.channel : undefined;
    const call: SlackCall = { method, ...(channel ? { channel } : {}), at: Date.now(), status: 200 };
    this.calls.push(call);
    const limit = this.limits.find((l) => l.left > 0 && l.method.test(method));
    if (limit) {
      limit.left--;
      call.status = 429;
      call.error = "ratelimited";
      return answer(429, { ok: false, error: "ratelimited" }, { "retry-after": String(limit.retryAfter) });
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const token = bearer ?? (typeof params.token === "string" ? params.token : undefined);
    try {
      answer(200, { ok: true, ...callMethod(this.state, method, token, params, req.headers.host) });
    } catch (err) {
      if (!(err instanceof SlackError)) throw err;
      call.error = err.code;
      answer(200, { ok: false, error: err.code });
    }
  }
}
