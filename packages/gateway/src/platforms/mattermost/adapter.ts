// Mattermost through @mattermost/client (SPEC G1): Client4 for the REST API v4 (the bot's account,
// posts, edits, the catch-up) and the official WebSocketClient for the event stream (socket.ts
// wires it for Node 20). Posts are taken in one at a time, in order. A dropped socket is
// reconnected by the client with backoff and resumed by the server (the missed events replayed);
// when the server cannot resume it (a new connection id), and after a restart, the posts since the
// last one taken are fetched over REST (since.ts), and the runner's ledger drops any it has seen.
// Replies in a channel go to the post's thread (root_id); sends, draft edits and deletes to one
// thread go through one queue. A token the server stops accepting stops this adapter alone.
import { createHash } from "node:crypto";
import type { Logger } from "@iris/llm";
import mattermost from "@mattermost/client";
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
import { EditedDrafts } from "../edited-drafts.js";
import { readFiles } from "./media.js";
import {
  type Bot,
  isForBot,
  normalisePost,
  PLATFORM,
  type Post,
  parsePosted,
  postSchema,
} from "./normalise.js";
import { Since } from "./since.js";
import { MattermostSocket } from "./socket.js";

const { Client4 } = mattermost;
type Client = InstanceType<typeof Client4>;

export interface MattermostOptions {
  /** The server's address, without /api/v4. */
  url: string;
  token: string;
  /** Where the token came from, for error messages (the token itself is never shown). */
  tokenEnv: string;
  /** Where the catch-up point is kept between runs. */
  sinceFile: string;
  /** Where received files are saved. */
  filesDir: string;
  logger: Logger;
  /** How long the first connection may take. */
  connectTimeoutMs?: number;
  /** The protocol ping's interval (a silent route is cut after two). */
  pingMs?: number;
}

/** model.PostMessageMaxRunesV2: a post holds 16,383 characters (code points). */
export const MATTERMOST_MAX_POST = 16383;
/** FileSettings.MaxFileSize's default: 100 MB a file. */
export const MATTERMOST_MAX_FILE = 100 * 1024 * 1024;
const runes = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

const laneOf = (to: ChatAddress) => `${to.chatId}/${to.threadId ?? ""}`;

export class MattermostAdapter implements PlatformAdapter {
  readonly platform = PLATFORM;
  // A repeat is dropped only within the server's 30 s pending_post_id window: not idempotent.
  readonly idempotentSend = false;
  readonly reportsHandOver = true;
  readonly limits: PlatformLimits = {
    maxMessage: MATTERMOST_MAX_POST,
    measure: runes,
    minEditIntervalMs: 1000,
    maxFileBytes: MATTERMOST_MAX_FILE,
  };
  private readonly client: Client;
  private readonly since: Since;
  private readonly queue = new ChatQueue({ intervalMs: () => 100, retryAfterMs: () => undefined });
  private readonly drafts = new EditedDrafts<string>(MATTERMOST_MAX_POST);
  private readonly usernames = new Map<string, string>();
  private socket: MattermostSocket | undefined;
  private bot: Bot = { id: "", username: "" };
  private host: AdapterHost | undefined;
  private deliver: (msg: InboundMessage) => void = () => {};
  /** The posts being taken in, one after another (their order is kept). */
  private inbound: Promise<void> = Promise.resolve();
  private connected = false;
  private stopping = false;

  constructor(private readonly opts: MattermostOptions) {
    this.client = new Client4();
    this.client.setUrl(opts.url);
    this.client.setToken(opts.token);
    this.client.setIncludeCookies(false);
    this.since = new Since(opts.sinceFile);
  }

  botNames(): string[] {
    return this.bot.username ? [this.bot.username] : [];
  }

  async start(onMessage: (msg: InboundMessage) => void, host?: AdapterHost): Promise<void> {
    this.host = host;
    this.deliver = onMessage;
    try {
      const me = await this.client.getMe();
      this.bot = { id: me.id, username: me.username };
    } catch (err) {
      throw new Error(`mattermost: ${this.explain(err)}`);
    }
    const socket = new MattermostSocket({
      url: this.client.getWebSocketUrl().replace(/^http/, "ws"),
      token: this.opts.token,
      log: (line) => this.opts.logger.debug(`mattermost socket: ${this.clean(line)}`),
      event: (m) => this.onEvent(m),
      missed: () => void this.catchUp(),
      closed: () => {
        if (!this.stopping && this.connected)
          this.host?.health?.("degraded", "the WebSocket to Mattermost dropped; reconnecting");
      },
      refused: () => this.died(`the token in ${this.opts.tokenEnv} was refused (401)`),
      ...(this.opts.pingMs ? { pingMs: this.opts.pingMs } : {}),
    });
    this.socket = socket;
    try {
      await socket.connect(this.opts.connectTimeoutMs ?? 30_000);
    } catch (err) {
      throw new Error(`mattermost: ${this.opts.url}: ${this.clean(String((err as Error).message))}`);
    }
    this.since.begin(await socket.serverTime());
    void this.catchUp();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.socket?.close();
    await this.inbound;
  }

  send(to: ChatAddress, text: string, opts: SendOptions = {}): Promise<SendResult> {
    const lane = laneOf(to);
    return this.queue.run(lane, async () => {
      await opts.handingOver?.();
      // The streamed draft becomes the reply's first part.
      const d = this.drafts.take(lane);
      if (d?.messageId !== undefined) {
        if (d.shown !== text) await this.patch(d.messageId, text);
        return { messageId: d.messageId };
      }
      return { messageId: await this.post(to, text, opts.key) };
    });
  }

  /** Uploads the file to the chat's channel (POST /files), then posts it there with the caption. */
  sendFile(to: ChatAddress, file: OutboundFile, opts: SendOptions = {}): Promise<SendResult> {
    return this.queue.run(laneOf(to), async () => {
      const form = new FormData();
      form.append("channel_id", to.chatId);
      form.append("files", new Blob([new Uint8Array(file.data)]), file.name);
      const uploaded = await this.call(() => this.client.uploadFile(form));
      const id = uploaded.file_infos[0]?.id;
      if (!id) throw new Error("mattermost: the upload answered without a file");
      // The post is what delivers: an upload left by a crash before it shows nowhere.
      await opts.handingOver?.();
      return {
        messageId: await this.post(to, (file.caption ?? "").slice(0, MATTERMOST_MAX_POST), opts.key, [id]),
      };
    });
  }

  draft(to: ChatAddress, text: string): void {
    this.drafts
      .stream(this.queue, laneOf(to), text, {
        post: (t) => this.post(to, t),
        edit: (id, t) => this.patch(id, t),
        remove: (id) => this.call(() => this.client.deletePost(id)).then(() => {}),
      })
      .catch((err) => this.opts.logger.warn("mattermost draft not shown", { error: this.explain(err) }));
  }

  async edit(to: ChatAddress, messageId: string, text: string): Promise<void> {
    await this.queue.run(laneOf(to), () => this.patch(messageId, text));
  }

  typing(to: ChatAddress): void {
    this.socket?.call((c) => c.userTyping(to.chatId, to.threadId ?? ""));
  }

  /** A new post; `key` (the outbox's) makes its pending_post_id, so a quick repeat is one post. */
  private async post(to: ChatAddress, message: string, key?: string, fileIds?: string[]): Promise<string> {
    const pending = key
      ? `${this.bot.id}:${BigInt(`0x${createHash("sha256").update(key).digest("hex").slice(0, 12)}`)}`
      : undefined;
    const post = await this.call(() =>
      this.client.createPost({
        channel_id: to.chatId,
        message,
        root_id: to.threadId ?? "",
        ...(pending ? { pending_post_id: pending } : {}),
        ...(fileIds ? { file_ids: fileIds } : {}),
      }),
    );
    return post.id;
  }

  private async patch(id: string, message: string): Promise<void> {
    await this.call(() => this.client.patchPost({ id, message }));
  }

  private onEvent(m: unknown): void {
    const event = (m as { event?: unknown; data?: unknown }).event;
    if (event === "hello") {
      if (this.connected) this.host?.health?.("connected");
      this.connected = true;
      return;
    }
    if (event !== "posted") return;
    const got = parsePosted((m as { data?: unknown }).data);
    if (!got)
      return void this.opts.logger.warn("mattermost: a posted event without a readable post, skipped");
    this.take(got.post, got.channelType, got.mentions);
  }

  /** Takes a post in after those before it; a failure is logged and skips that post only. */
  private take(post: Post, channelType: string, mentions: readonly string[]): void {
    this.inbound = this.inbound
      .then(async () => {
        if (this.stopping || !isForBot(post, this.bot)) return;
        const msg = normalisePost(
          post,
          channelType,
          this.bot,
          { username: await this.usernameOf(post.user_id) },
          mentions,
        );
        const files = post.metadata?.files ?? [];
        if (files.length) {
          const got = await readFiles(files, post.id, {
            api: this.client.getBaseRoute(),
            token: this.opts.token,
            filesDir: this.opts.filesDir,
          });
          msg.attachments = got.attachments;
          msg.text = [msg.text, ...got.lines].filter((l) => l !== "").join("\n");
        }
        this.deliver(msg);
        this.since.took(post.create_at);
      })
      .catch((err) => this.opts.logger.warn("mattermost post skipped", { error: this.explain(err) }));
  }

  /** The posts of every channel of the bot since the saved point, oldest first. */
  private async catchUp(): Promise<void> {
    const from = this.since.saved;
    if (from === undefined || this.stopping) return;
    try {
      const channels = await this.call(() => this.client.getAllTeamsChannels());
      for (const c of channels) {
        if (c.last_post_at < from) continue;
        const list = await this.call(() => this.client.getPostsSince(c.id, from - 1));
        const posts = Object.values(list.posts)
          .flatMap((p) => {
            const ok = postSchema.safeParse(p);
            return ok.success && ok.data.create_at >= from ? [ok.data] : [];
          })
          .sort((a, b) => a.create_at - b.create_at);
        for (const p of posts) this.take(p, c.type, []);
      }
    } catch (err) {
      this.opts.logger.warn("mattermost: catching up on missed posts failed", { error: this.explain(err) });
    }
  }

  private async usernameOf(userId: string): Promise<string> {
    const known = this.usernames.get(userId);
    if (known) return known;
    const u = await this.call(() => this.client.getUser(userId));
    if (this.usernames.size > 10_000) this.usernames.clear();
    this.usernames.set(userId, u.username);
    return u.username;
  }

  /** A REST call; a token the server no longer accepts stops the adapter (the others keep running). */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if ((err as { status_code?: unknown }).status_code === 401)
        this.died(`the token in ${this.opts.tokenEnv} was refused (401)`);
      throw new Error(this.explain(err));
    }
  }

  private died(reason: string): void {
    if (this.stopping) return;
    this.stopping = true;
    this.host?.stopped?.(`mattermost: ${reason}`);
    this.socket?.close();
  }

  /** What went wrong, for a person: never the token. */
  private explain(err: unknown): string {
    const e = err as { status_code?: unknown; message?: unknown; cause?: unknown };
    let text: string;
    if (e?.status_code === 401)
      text = `the token in ${this.opts.tokenEnv} was refused (401): it is wrong or was revoked`;
    else if (typeof e?.status_code === "number")
      text = `Mattermost answered ${e.status_code} (${String(e.message)})`;
    else if (err instanceof TypeError && e.cause)
      text = `cannot reach ${this.opts.url}: ${String((e.cause as { message?: unknown }).message ?? e.cause)}`;
    else text = err instanceof Error ? err.message : String(err);
    return this.clean(text);
  }

  private clean(text: string): string {
    return text.split(this.opts.token).join("<token>");
  }
}
