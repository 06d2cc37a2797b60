// A fake Discord on 127.0.0.1: the REST API (rest.ts) under /api/v10 and the Gateway WebSocket
// on the same port, driven by the real client (discord.js with `rest.api` pointed here). As
// strict as Discord where Iris depends on it:
// - the Gateway speaks HELLO (op 10) → IDENTIFY (op 2) → READY + GUILD_CREATE dispatches,
//   heartbeats (op 1 → op 11 ACK), RESUME (op 6) with the events missed since `seq` replayed and
//   RESUMED, or INVALID_SESSION (op 9) for an unknown session; a wrong token closes with 4004;
//   without the MESSAGE_CONTENT intent a guild message that does not mention the bot has no content;
// - REST wants `Authorization: Bot TOKEN` (401 otherwise, and after `revokeToken`, which also
//   closes the Gateway with 4004); `floodWait` answers the next calls with 429, `retry_after` in
//   the body and a `Retry-After` header, and every call's time is recorded;
// - faults for reconnect tests: `dropConnections` (no close frame: 1006), `sendReconnect` (op 7),
//   `deaf` (the connection's heartbeats go unanswered and nothing is dispatched to it: a zombie).
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocket, WebSocketServer } from "ws";
import { messageJson, parseBody, RestError, type RestState, route } from "./rest.js";
import type { DcBotMessage, DcCall, DcChannel, DcCommand, DcUser } from "./types.js";

export interface FakeDiscordOptions {
  token: string;
  botUsername?: string;
  /** HELLO's heartbeat interval (Discord: about 41 s; tests use less to find zombies sooner). */
  heartbeatIntervalMs?: number;
}

export interface DiscordUserMessage {
  channelId: string;
  author: { id: string; username: string; global_name?: string };
  content: string;
  /** Put `<@bot>` before the content and the bot in `mentions` (as the client does). */
  mentionBot?: boolean;
  /** The id of one of the bot's messages this one replies to. */
  replyTo?: string;
  attachments?: { filename: string; contentType: string; bytes: Buffer }[];
}

const MESSAGE_CONTENT = 1 << 15;

interface Session {
  id: string;
  seq: number;
  intents: number;
  events: { s: number; t: string; d: unknown }[];
  ws?: WebSocket;
}

export class FakeDiscord {
  readonly calls: DcCall[] = [];
  /** Gateway connections opened (a reconnect storm shows up here). */
  connections = 0;
  /** RESUMEs that continued a session. */
  resumes = 0;
  private token: string;
  private snowflake = 1_100_000_000_000_000_000n;
  private readonly state: RestState;
  private readonly guilds = new Map<string, { id: string; name: string }>();
  private readonly files = new Map<string, Buffer>();
  private readonly wss = new WebSocketServer({ noServer: true });
  private session: Session | undefined;
  /** The connection gone deaf (a zombie): a new one is healthy again. */
  private deafSocket: WebSocket | undefined;
  private readonly floods: { route: RegExp; retryAfter: number; left: number }[] = [];
  private readonly stalls: { route: RegExp; ms: number; left: number }[] = [];
  private lastUserMessage: Record<string, unknown> | undefined;

  private constructor(
    private readonly server: Server,
    private readonly opts: FakeDiscordOptions,
  ) {
    this.token = opts.token;
    const bot: DcUser = {
      id: this.nextId(),
      username: opts.botUsername ?? "iris_test_bot",
      discriminator: "0",
      bot: true,
    };
    this.state = {
      bot,
      applicationId: bot.id,
      channels: new Map(),
      botMessages: new Map(),
      nonces: new Map(),
      nextId: () => this.nextId(),
      interactions: new Map(),
      typing: [],
      commands: [],
      gatewayUrl: (req) => `ws://${req.headers.host ?? `127.0.0.1:${this.port}`}`,
    };
  }

  static async start(opts: FakeDiscordOptions): Promise<FakeDiscord> {
    const server = createServer();
    const fake = new FakeDiscord(server, opts);
    server.on("request", (req, res) => void fake.onRequest(req, res));
    server.on("upgrade", (req, socket, head) =>
      fake.wss.handleUpgrade(req, socket, head, (ws) => fake.onConnection(ws, req)),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return fake;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** What the adapter's `api_base` points at (discord.js's `rest.api`). */
  get apiBase(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }

  get botUser(): DcUser {
    return this.state.bot;
  }

  get typing(): readonly { channelId: string; at: number }[] {
    return this.state.typing;
  }

  /** A guild with text channels (by name), and its first channel's id. */
  addGuild(name: string, channels: string[]): { guildId: string; channelIds: string[] } {
    const guildId = this.nextId();
    this.guilds.set(guildId, { id: guildId, name });
    const channelIds = channels.map((n) => {
      const id = this.nextId();
      this.state.channels.set(id, { id, type: 0, guild_id: guildId, name: n });
      return id;
    });
    return { guildId, channelIds };
  }

  /** A public thread under a guild channel; announced with THREAD_CREATE. */
  addThread(parentId: string, name: string): string {
    const parent = this.state.channels.get(parentId);
    if (!parent?.guild_id) throw new Error(`no guild channel ${parentId}`);
    const id = this.nextId();
    const thread: DcChannel = { id, type: 11, guild_id: parent.guild_id, parent_id: parentId, name };
    this.state.channels.set(id, thread);
    this.dispatch("THREAD_CREATE", { ...this.threadJson(thread), newly_created: true });
    return id;
  }

  /** The DM channel between the bot and a user. */
  dmChannel(user: { id: string; username: string }): string {
    for (const c of this.state.channels.values())
      if (c.type === 1 && c.recipients?.[0]?.id === user.id) return c.id;
    const id = this.nextId();
    this.state.channels.set(id, { id, type: 1, recipients: [{ ...user, discriminator: "0" }] });
    return id;
  }

  /** The bot's messages in a channel, oldest first. */
  messages(channelId: string): DcBotMessage[] {
    return [...this.state.botMessages.values()].filter((m) => m.channelId === channelId);
  }

  /** A user writes in a channel (a MESSAGE_CREATE); returns the message's id. */
  send(m: DiscordUserMessage): string {
    const channel = this.state.channels.get(m.channelId);
    if (!channel) throw new Error(`no channel ${m.channelId}`);
    const author = { ...m.author, discriminator: "0", bot: false };
    const bot = this.state.bot;
    const id = this.nextId();
    const replied = m.replyTo ? this.state.botMessages.get(m.replyTo) : undefined;
    if (m.replyTo && !replied) throw new Error(`no bot message ${m.replyTo}`);
    const written = m.mentionBot ? `<@${bot.id}> ${m.content}` : m.content;
    // Discord's rule: without the intent only DMs, mentions and replies to the bot carry content.
    const content = channel.guild_id && !m.mentionBot && !replied && !this.hasMessageContent ? "" : written;
    const attachments = (m.attachments ?? []).map((a) => {
      const aid = this.nextId();
      this.files.set(`${aid}/${a.filename}`, a.bytes);
      const url = `http://127.0.0.1:${this.port}/attachments/${m.channelId}/${aid}/${a.filename}`;
      return {
        id: aid,
        filename: a.filename,
        size: a.bytes.length,
        url,
        proxy_url: url,
        content_type: a.contentType,
      };
    });
    const message: Record<string, unknown> = {
      id,
      channel_id: channel.id,
      // Discord names the channel's type (discord.js builds an uncached DM channel from it).
      channel_type: channel.type,
      ...(channel.guild_id
        ? {
            guild_id: channel.guild_id,
            member: { roles: [], joined_at: new Date(0).toISOString(), deaf: false, mute: false, flags: 0 },
          }
        : {}),
      author,
      content,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: m.mentionBot || replied ? [bot] : [],
      mention_roles: [],
      attachments,
      embeds: [],
      pinned: false,
      type: replied ? 19 : 0,
      ...(replied
        ? {
            message_reference: {
              message_id: replied.id,
              channel_id: channel.id,
              ...(channel.guild_id ? { guild_id: channel.guild_id } : {}),
            },
            referenced_message: {
              id: replied.id,
              channel_id: channel.id,
              author: bot,
              content: replied.texts.at(-1) ?? "",
              timestamp: new Date().toISOString(),
              edited_timestamp: null,
              tts: false,
              mention_everyone: false,
              mentions: [],
              mention_roles: [],
              attachments: [],
              embeds: [],
              pinned: false,
              type: 0,
            },
          }
        : {}),
    };
    this.lastUserMessage = message;
    this.dispatch("MESSAGE_CREATE", message);
    return id;
  }

  /** The last user message is dispatched again (as a resume may replay it). */
  redeliverLast(): void {
    if (!this.lastUserMessage) throw new Error("no message to redeliver");
    this.dispatch("MESSAGE_CREATE", this.lastUserMessage);
  }

  /** A user presses a button of a bot message (an INTERACTION_CREATE); returns the interaction id. */
  press(messageId: string, customId: string, user: { id: string; username: string }): string {
    const msg = this.state.botMessages.get(messageId);
    if (!msg?.buttons.some((b) => b.customId === customId))
      throw new Error(`message ${messageId} has no button ${customId}`);
    const channel = this.state.channels.get(msg.channelId) as DcChannel;
    return this.interaction(channel, user, {
      type: 3,
      data: { custom_id: customId, component_type: 2 },
      message: messageJson(this.state, msg),
    });
  }

  /** The slash commands the bot registered. */
  get commands(): readonly DcCommand[] {
    return this.state.commands;
  }

  /** A user runs slash command `name` (it must be registered) in a channel; the interaction id. */
  slashCommand(
    channelId: string,
    user: { id: string; username: string },
    name: string,
    args?: string,
  ): string {
    const command = this.state.commands.find((c) => c.name === name);
    if (!command) throw new Error(`no slash command /${name} registered`);
    const channel = this.state.channels.get(channelId);
    if (!channel) throw new Error(`no channel ${channelId}`);
    const option = command.options[0];
    return this.interaction(channel, user, {
      type: 2,
      data: {
        id: this.nextId(),
        name,
        type: 1,
        ...(args !== undefined && option ? { options: [{ name: option.name, type: 3, value: args }] } : {}),
      },
    });
  }

  /** Dispatches an INTERACTION_CREATE by `user` in `channel` with `fields` (type, data, …); its id. */
  private interaction(
    channel: DcChannel,
    user: { id: string; username: string },
    fields: Record<string, unknown>,
  ): string {
    const id = this.nextId();
    const token = randomBytes(24).toString("base64url");
    this.state.interactions.set(id, { token, answered: false });
    const u = { ...user, discriminator: "0", bot: false };
    this.dispatch("INTERACTION_CREATE", {
      id,
      application_id: this.state.applicationId,
      token,
      version: 1,
      channel_id: channel.id,
      channel: channel.type === 1 ? { id: channel.id, type: 1 } : this.threadJson(channel),
      ...(channel.guild_id
        ? {
            guild_id: channel.guild_id,
            member: {
              user: u,
              roles: [],
              joined_at: new Date(0).toISOString(),
              permissions: "0",
              deaf: false,
              mute: false,
              flags: 0,
            },
          }
        : { user: u }),
      ...fields,
      app_permissions: "0",
      locale: "en-US",
      entitlements: [],
      authorizing_integration_owners: {},
      context: channel.guild_id ? 0 : 1,
    });
    return id;
  }

  interactionAnswered(id: string): boolean {
    return this.state.interactions.get(id)?.answered ?? false;
  }

  /** The next `count` REST calls whose route matches answer 429 with `retry_after` seconds. */
  floodWait(routePattern: RegExp, count: number, retryAfterSeconds: number): void {
    this.floods.push({ route: routePattern, retryAfter: retryAfterSeconds, left: count });
  }

  /** The next `count` REST calls whose route matches take effect but are answered `ms` late. */
  stallAnswers(routePattern: RegExp, count: number, ms: number): void {
    this.stalls.push({ route: routePattern, ms, left: count });
  }

  /** Sends a Gateway dispatch `t` with `d` as given, however wrong its shape (malformed events). */
  pushRaw(t: string, d: unknown): void {
    this.dispatch(t, d);
  }

  /** The token stops working: REST answers 401 and the Gateway closes with 4004. */
  revokeToken(): void {
    this.token = `revoked-${randomUUID()}`;
    this.session?.ws?.close(4004, "Authentication failed.");
  }

  /** Cuts the Gateway connection without a close frame (the client sees 1006 and resumes). */
  dropConnections(): void {
    this.session?.ws?.terminate();
  }

  /** Asks the client to reconnect and resume (op 7). */
  sendReconnect(): void {
    this.session?.ws?.send(JSON.stringify({ op: 7, d: null }));
  }

  /**
   * The current connection goes deaf (a zombie): it stays open but answers no heartbeat and gets
   * no dispatch. The connection the client opens instead (its resume) is healthy.
   */
  deaf(): void {
    this.deafSocket = this.session?.ws;
  }

  async close(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private nextId(): string {
    this.snowflake += 4_194_304n; // one millisecond of a snowflake's timestamp
    return String(this.snowflake);
  }

  private threadJson(c: DcChannel) {
    return {
      id: c.id,
      type: c.type,
      guild_id: c.guild_id,
      name: c.name,
      ...(c.parent_id
        ? {
            parent_id: c.parent_id,
            owner_id: this.state.bot.id,
            thread_metadata: {
              archived: false,
              auto_archive_duration: 1440,
              archive_timestamp: new Date().toISOString(),
              locked: false,
            },
          }
        : {}),
    };
  }

  private dispatch(t: string, d: unknown): void {
    const s = this.session;
    if (!s) return;
    const event = { s: ++s.seq, t, d };
    s.events.push(event);
    if (s.events.length > 1000) s.events.shift();
    if (s.ws && s.ws !== this.deafSocket && s.ws.readyState === WebSocket.OPEN)
      s.ws.send(JSON.stringify({ op: 0, ...event }));
  }

  private onConnection(ws: WebSocket, req: IncomingMessage): void {
    this.connections++;
    const url = new URL(req.url ?? "/", "ws://x");
    if (url.searchParams.get("encoding") !== "json" || url.searchParams.get("v") !== "10")
      return void ws.close(4012, "Invalid API version");
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.opts.heartbeatIntervalMs ?? 41_250 } }));
    ws.on("message", (raw) => {
      let p: { op?: unknown; d?: Record<string, unknown> | null };
      try {
        p = JSON.parse(String(raw));
      } catch {
        return void ws.close(4002, "Error while decoding payload.");
      }
      if (p.op === 1) {
        if (ws !== this.deafSocket) ws.send(JSON.stringify({ op: 11 }));
      } else if (p.op === 2) this.identify(ws, req, p.d ?? {});
      else if (p.op === 6) this.resume(ws, p.d ?? {});
      else if (p.op === 3 || p.op === 4 || p.op === 8) {
        // presence, voice and member requests: accepted, nothing to do
      } else ws.close(4001, "Unknown opcode.");
    });
    ws.on("close", () => {
      if (this.session?.ws === ws) this.session.ws = undefined;
    });
  }

  private identify(ws: WebSocket, req: IncomingMessage, d: Record<string, unknown>): void {
    if (d.token !== this.token) return void ws.close(4004, "Authentication failed.");
    if (typeof d.intents !== "number") return void ws.close(4013, "Invalid intent(s).");
    this.session?.ws?.close(4009, "Session timed out.");
    const s: Session = { id: randomUUID().replace(/-/g, ""), seq: 0, intents: d.intents, events: [], ws };
    this.session = s;
    this.dispatch("READY", {
      v: 10,
      user: this.state.bot,
      guilds: [...this.guilds.keys()].map((id) => ({ id, unavailable: true })),
      session_id: s.id,
      resume_gateway_url: `ws://${req.headers.host ?? `127.0.0.1:${this.port}`}`,
      application: { id: this.state.applicationId, flags: 0 },
      private_channels: [],
    });
    for (const g of this.guilds.values()) this.dispatch("GUILD_CREATE", this.guildJson(g.id, g.name));
  }

  private resume(ws: WebSocket, d: Record<string, unknown>): void {
    const s = this.session;
    if (d.token !== this.token) return void ws.close(4004, "Authentication failed.");
    if (!s || d.session_id !== s.id || typeof d.seq !== "number") {
      ws.send(JSON.stringify({ op: 9, d: false }));
      return;
    }
    s.ws?.close(4009, "Session timed out.");
    s.ws = ws;
    this.resumes++;
    for (const e of s.events) if (e.s > (d.seq as number)) ws.send(JSON.stringify({ op: 0, ...e }));
    this.dispatch("RESUMED", {});
  }

  private guildJson(id: string, name: string) {
    const channels = [...this.state.channels.values()].filter((c) => c.guild_id === id);
    return {
      id,
      name,
      unavailable: false,
      owner_id: this.state.bot.id,
      member_count: 2,
      large: false,
      joined_at: new Date(0).toISOString(),
      features: [],
      roles: [
        {
          id,
          name: "@everyone",
          permissions: "68608",
          position: 0,
          color: 0,
          hoist: false,
          managed: false,
          mentionable: false,
          flags: 0,
        },
      ],
      emojis: [],
      stickers: [],
      members: [],
      voice_states: [],
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      channels: channels
        .filter((c) => c.type === 0)
        .map((c) => ({ id: c.id, type: 0, name: c.name, position: 0, permission_overwrites: [] })),
      threads: channels.filter((c) => c.type === 11).map((c) => this.threadJson(c)),
    };
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://x");
    const file = /^\/attachments\/\d+\/(\d+\/[^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && file) {
      const bytes = this.files.get(file[1] as string);
      res.writeHead(bytes ? 200 : 404, { "content-type": "application/octet-stream" });
      return void res.end(bytes ?? "");
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const method = req.method ?? "GET";
    const path = url.pathname.replace(/^\/api\/v10(?=\/)/, "");
    const channelId = /^\/channels\/(\d+)/.exec(path)?.[1];
    const call: DcCall = {
      method,
      route: path,
      ...(channelId ? { channelId } : {}),
      at: Date.now(),
      status: 0,
    };
    this.calls.push(call);
    const answer = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      call.status = status;
      // A 204 carries no content type: undici's JSON parse of an empty body throws.
      if (status === 204 || body === undefined) res.writeHead(status, headers).end();
      else
        res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
    };
    if (path === url.pathname) return answer(404, { message: "404: Not Found", code: 0 });
    // An interaction's callback is authorised by the token in its URL (discord.js sends no header).
    const byUrl = path.startsWith("/interactions/");
    if (!byUrl && req.headers.authorization !== `Bot ${this.token}`)
      return answer(401, { message: "401: Unauthorized", code: 0 });
    const flood = this.floods.find((f) => f.left > 0 && f.route.test(`${method} ${path}`));
    if (flood) {
      flood.left--;
      return answer(
        429,
        { message: "You are being rate limited.", retry_after: flood.retryAfter, global: false, code: 0 },
        { "retry-after": String(flood.retryAfter), "x-ratelimit-scope": "user" },
      );
    }
    let request: ReturnType<typeof parseBody>;
    try {
      request = parseBody(Buffer.concat(chunks), req.headers["content-type"] ?? "");
    } catch {
      return answer(400, { message: "400: Bad Request", code: 50109 });
    }
    try {
      const r = route(this.state, req, method, path, request.body, request.files);
      // A stalled answer: the call took effect, its reply comes late (a client may time out and retry).
      const stall = this.stalls.find((f) => f.left > 0 && f.route.test(`${method} ${path}`));
      if (stall) stall.left--;
      if (stall) setTimeout(() => answer(r.status, r.body), stall.ms);
      else answer(r.status, r.body);
    } catch (err) {
      if (err instanceof RestError) answer(err.status, err.body);
      else answer(500, { message: String(err), code: 0 });
    }
  }

  /** Whether a session has MESSAGE_CONTENT (guild messages not mentioning the bot lose content without). */
  get hasMessageContent(): boolean {
    return ((this.session?.intents ?? 0) & MESSAGE_CONTENT) !== 0;
  }
}
