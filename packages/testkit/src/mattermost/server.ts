// A fake Mattermost on 127.0.0.1: the REST API v4 (rest.ts) and the WebSocket event stream
// (socket.ts) on one port, driven by the real client (@mattermost/client's Client4 and
// WebSocketClient pointed here). Users are the test's; the bot is the only API client. A post
// goes out as a `posted` event whose `data.post` is the post as a JSON string (and `mentions`,
// when someone is mentioned, a JSON string of user ids; in a DM the other member always is), as
// the server sends it. Faults: `dropConnections` (no close frame; resumable), `forgetConnections`
// (a server restart: a new connection id, what was missed only over REST), `revokeToken`,
// `setDeaf` (nothing sent or answered, pings included).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { uploadFiles } from "./files.js";
import { type MmChannel, MmError, type MmFile, type MmPost, type MmUser, newId, postJson } from "./model.js";
import { type RestState, route } from "./rest.js";
import { SocketHub } from "./socket.js";

export interface FakeMattermostOptions {
  token: string;
  botUsername?: string;
}

export interface MattermostUserPost {
  channel: string;
  user: string;
  message: string;
  /** The thread's root post. */
  rootId?: string;
  files?: { name: string; mime: string; bytes: Buffer }[];
}

export interface MmCall {
  method: string;
  path: string;
  at: number;
}

export class FakeMattermost {
  readonly calls: MmCall[] = [];
  readonly typing: { channelId: string; parentId: string; at: number }[] = [];
  private readonly state: RestState;
  private readonly hub: SocketHub;
  private revoked = false;
  private last = 0;
  private lastUserPost: MmPost | undefined;

  private constructor(
    private readonly server: Server,
    private readonly opts: FakeMattermostOptions,
  ) {
    const bot: MmUser = { id: newId(), username: opts.botUsername ?? "iris", is_bot: true, create_at: 1 };
    this.state = {
      bot,
      team: { id: newId(), name: "iris-test", display_name: "Iris test" },
      users: new Map(),
      channels: new Map(),
      posts: new Map(),
      files: new Map(),
      pending: new Map(),
      now: () => this.now(),
      emit: (event, post) => this.emit(event, post),
      typed: (_user, channelId, parentId) => this.typing.push({ channelId, parentId, at: Date.now() }),
    };
    this.hub = new SocketHub({
      userOf: (token) => (!this.revoked && token === opts.token ? bot.id : undefined),
      canSee: (userId, channelId) => this.state.channels.get(channelId)?.members.has(userId) === true,
      typed: (_user, channelId, parentId) => this.typing.push({ channelId, parentId, at: Date.now() }),
    });
  }

  static async start(opts: FakeMattermostOptions): Promise<FakeMattermost> {
    const server = createServer();
    const fake = new FakeMattermost(server, opts);
    server.on("request", (req, res) => void fake.onRequest(req, res));
    server.on("upgrade", (req, socket, head) => {
      if ((req.url ?? "").split("?")[0] !== "/api/v4/websocket") return void socket.destroy();
      fake.hub.upgrade(req, socket, head);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return fake;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The server's URL (the adapter's `url`). */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get bot(): { id: string; username: string } {
    return { id: this.state.bot.id, username: this.state.bot.username };
  }

  /** WebSocket connections opened, and resumes of a connection id. */
  get connections(): number {
    return this.hub.opened;
  }
  get resumes(): number {
    return this.hub.resumes;
  }

  addUser(username: string): string {
    const u: MmUser = { id: newId(), username, is_bot: false, create_at: this.now() };
    this.state.users.set(u.id, u);
    return u.id;
  }

  /** The direct channel of the bot and `user` (named `id1__id2`, the ids sorted). */
  dm(user: string): string {
    const ids = [this.state.bot.id, user].sort();
    const name = ids.join("__");
    for (const c of this.state.channels.values()) if (c.name === name) return c.id;
    return this.channel("D", name, `@${this.state.users.get(user)?.username ?? user}`, "", ids);
  }

  /** A team channel (public unless `type: "P"`) with the bot and `members`. */
  addChannel(name: string, members: string[], type: "O" | "P" = "O"): string {
    return this.channel(type, name, name, this.state.team.id, [this.state.bot.id, ...members]);
  }

  private channel(type: MmChannel["type"], name: string, display: string, team: string, members: string[]) {
    const c: MmChannel = {
      id: newId(),
      team_id: team,
      type,
      name,
      display_name: display,
      members: new Set(members),
      create_at: this.now(),
      last_post_at: 0,
      last_root_post_at: 0,
    };
    this.state.channels.set(c.id, c);
    return c.id;
  }

  /** A user posts (with files uploaded first, as the web app does); the post's id. */
  userPosts(m: MattermostUserPost): string {
    const channel = this.state.channels.get(m.channel);
    if (!channel?.members.has(m.user)) throw new Error(`${m.user} is not in channel ${m.channel}`);
    if (m.rootId && this.state.posts.get(m.rootId)?.root_id !== "")
      throw new Error(`${m.rootId} is not a root post`);
    const now = this.now();
    const files = (m.files ?? []).map((f) => {
      const file: MmFile = {
        id: newId(),
        user_id: m.user,
        channel_id: m.channel,
        name: f.name,
        mime_type: f.mime,
        bytes: f.bytes,
        create_at: now,
        post_id: "",
      };
      this.state.files.set(file.id, file);
      return file.id;
    });
    const post: MmPost = {
      id: newId(),
      create_at: now,
      update_at: now,
      edit_at: 0,
      delete_at: 0,
      user_id: m.user,
      channel_id: m.channel,
      root_id: m.rootId ?? "",
      message: m.message,
      type: "",
      props: {},
      pending_post_id: `${m.user}:${now}`,
      file_ids: files,
    };
    this.state.posts.set(post.id, post);
    this.lastUserPost = post;
    this.emit("posted", post);
    return post.id;
  }

  /** The last user post's event again (as a resume or a second connection may show it). */
  redeliverLast(): void {
    if (!this.lastUserPost) throw new Error("no post to redeliver");
    this.emit("posted", this.lastUserPost);
  }

  /** The bot's posts in a channel (or one thread), oldest first, as they read now. */
  botPosts(
    channel: string,
    rootId?: string,
  ): {
    id: string;
    rootId: string;
    message: string;
    edits: number;
    files: { name: string; mime: string; bytes: Buffer }[];
  }[] {
    return [...this.state.posts.values()]
      .filter(
        (p) =>
          p.channel_id === channel &&
          p.user_id === this.state.bot.id &&
          p.delete_at === 0 &&
          (rootId === undefined || p.root_id === rootId),
      )
      .map((p) => ({
        id: p.id,
        rootId: p.root_id,
        message: p.message,
        edits: p.edit_at ? 1 : 0,
        files: p.file_ids.flatMap((id) => {
          const f = this.state.files.get(id);
          return f ? [{ name: f.name, mime: f.mime_type, bytes: f.bytes }] : [];
        }),
      }));
  }

  dropConnections(): void {
    this.hub.drop();
  }

  forgetConnections(): void {
    this.hub.forget();
  }

  /** The bot's token stops working: REST answers 401 and its sockets are cut. */
  revokeToken(): void {
    this.revoked = true;
    this.hub.closeUser(this.state.bot.id);
  }

  setDeaf(on: boolean): void {
    this.hub.setDeaf(on);
  }

  async close(): Promise<void> {
    this.hub.close();
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  /** Milliseconds, strictly increasing (two posts never share a create_at). */
  private now(): number {
    this.last = Math.max(Date.now(), this.last + 1);
    return this.last;
  }

  private emit(event: "posted" | "post_edited" | "post_deleted", post: MmPost): void {
    const channel = this.state.channels.get(post.channel_id);
    if (!channel) return;
    const json = JSON.stringify(postJson(post, this.state.files));
    let data: Record<string, unknown> = { post: json };
    if (event === "posted") {
      channel.last_post_at = post.create_at;
      if (post.root_id === "") channel.last_root_post_at = post.create_at;
      const sender = this.state.users.get(post.user_id) ?? this.state.bot;
      const mentions = this.mentions(channel, post);
      data = {
        channel_display_name: channel.display_name,
        channel_name: channel.name,
        channel_type: channel.type,
        post: json,
        sender_name: `@${sender.username}`,
        set_online: true,
        team_id: channel.team_id,
        ...(mentions.length ? { mentions: JSON.stringify(mentions) } : {}),
      };
    }
    this.hub.broadcast(channel.members, event, data, { channel_id: channel.id });
  }

  /** Who a post mentions: `@username` of a member; in a DM, the other member. */
  private mentions(channel: MmChannel, post: MmPost): string[] {
    if (channel.type === "D") return [...channel.members].filter((id) => id !== post.user_id);
    return [...channel.members].filter((id) => {
      const u = this.state.users.get(id) ?? (id === this.state.bot.id ? this.state.bot : undefined);
      if (!u || id === post.user_id) return false;
      const name = u.username.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      return new RegExp(`(^|[^a-z0-9_])@${name}(?![a-z0-9_-])`, "i").test(post.message);
    });
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://x");
    const method = req.method ?? "GET";
    this.calls.push({ method, path: url.pathname, at: Date.now() });
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json", "X-Version-Id": "10.11.0.fake" });
      res.end(JSON.stringify(json));
    };
    try {
      const raw = await readBody(req);
      if (url.pathname === "/api/v4/system/ping") return send(200, { status: "OK" });
      if (!url.pathname.startsWith("/api/v4/"))
        throw new MmError(404, "api.context.404.app_error", "Sorry, we could not find the page.");
      const auth = /^(bearer|token)\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[2];
      if (this.revoked || auth !== this.opts.token)
        throw new MmError(
          401,
          "api.context.session_expired.app_error",
          "Invalid or expired session, please login again.",
        );
      if (method === "POST" && url.pathname === "/api/v4/files") {
        const answer = await uploadFiles(
          this.state,
          req.headers["content-type"] ?? "",
          raw,
          url.searchParams,
        );
        return send(answer.status, answer.json);
      }
      let body: unknown;
      if (raw.length) {
        try {
          body = JSON.parse(raw.toString("utf8"));
        } catch {
          throw new MmError(400, "api.context.invalid_body_param.app_error", "Invalid or missing body.");
        }
      }
      const answer = route(this.state, method, url.pathname, url.searchParams, body);
      if ("bytes" in answer) {
        res.writeHead(answer.status, { "Content-Type": answer.type, "Content-Length": answer.bytes.length });
        return void res.end(answer.bytes);
      }
      send(answer.status, answer.json);
    } catch (err) {
      if (err instanceof MmError) return send(err.status, err.json());
      send(500, new MmError(500, "app.internal", String(err)).json());
    }
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
