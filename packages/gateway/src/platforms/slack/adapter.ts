// Slack through Bolt (SPEC G1): Socket Mode (the app opens a WebSocket; no public URL) or the HTTP
// Events API (Bolt's receiver checks each request's signature and refuses stale timestamps with
// 401 before anything runs). Bolt acks every event at once (Slack redelivers after 3 s); a
// redelivery keeps its message's id (channel:ts), which the runner claims once. Sends, draft
// edits and deletes to one conversation go through one per-chat queue; a 429 is waited out by
// @slack/web-api inside the call (its Retry-After), so nothing else reaches that chat before it.
// Replies in a channel go to the message's thread (thread_ts); approvals are Block Kit buttons
// keyed by the request id. A token Slack stops accepting stops this adapter alone. Files in and
// out: files.ts; the thread status line that stands in for typing: thread-status.ts.
import type { Logger } from "@iris/llm";
import { App, HTTPReceiver, LogLevel, SocketModeReceiver, webApi } from "@slack/bolt";
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
import { withSavedAttachments } from "../saved-attachments.js";
import { boltLogger } from "./bolt-logger.js";
import { downloadPrivate, fileOrigins, SLACK_MAX_FILE } from "./files.js";
import { toMrkdwn } from "./mrkdwn.js";
import {
  approvalData,
  type BlockActionsBody,
  normaliseEvent,
  normalisePress,
  PLATFORM,
  type SlackMessageEvent,
} from "./normalise.js";
import { ThreadStatus } from "./thread-status.js";

export interface SlackOptions {
  token: string;
  /** Where the token came from, for error messages (the token itself is never shown). */
  tokenEnv: string;
  mode: "socket" | "http";
  /** Socket Mode's app-level token. */
  appToken?: string;
  /** HTTP mode's signing secret. */
  signingSecret?: string;
  http?: { host: string; port: number };
  apiUrl?: string;
  /** Where files sent to the bot are saved. */
  filesDir: string;
  logger: Logger;
}

/** Slack truncates a message at 40,000 characters and advises 4,000: longer replies are split. */
export const SLACK_MAX_TEXT = 4000;
/** A section block's text holds 3,000 characters. */
const MAX_SECTION = 3000;
/** Slack's codes for a token it no longer accepts. */
const DEAD_TOKEN = new Set([
  "invalid_auth",
  "token_revoked",
  "account_inactive",
  "not_authed",
  "team_disabled",
]);

const STYLE = { once: "primary", session: undefined, deny: "danger" } as const;

/** Where a reply goes: the conversation, in the thread where there is one. */
const placeOf = (to: ChatAddress) => ({
  channel: to.chatId,
  ...(to.threadId ? { thread_ts: to.threadId } : {}),
});
const laneOf = (to: ChatAddress) => `${to.chatId}/${to.threadId ?? ""}`;

export class SlackAdapter implements PlatformAdapter {
  readonly platform = PLATFORM;
  readonly idempotentSend = false;
  readonly reportsHandOver = true;
  readonly limits: PlatformLimits = {
    maxMessage: SLACK_MAX_TEXT,
    measure: utf16Length,
    // chat.update is a Tier 3 method (about 50 a minute).
    minEditIntervalMs: 1200,
    // The thread status is cleared by the app's own posts (the draft): set again this often.
    typingRepeatMs: 5000,
    maxFileBytes: SLACK_MAX_FILE,
  };
  private readonly app: App;
  private readonly client: webApi.WebClient;
  private readonly socket: SocketModeReceiver | undefined;
  // About one message a second per conversation (Slack's chat.postMessage limit).
  private readonly queue = new ChatQueue({ intervalMs: () => 1000, retryAfterMs: () => undefined });
  private readonly drafts = new EditedDrafts<string>(SLACK_MAX_TEXT);
  private readonly names = new Map<string, string>();
  private bot = { userId: "", name: "" };
  private stopping = false;
  private host: AdapterHost | undefined;
  private readonly status: ThreadStatus;

  constructor(private readonly opts: SlackOptions) {
    const secrets = [opts.token, opts.appToken, opts.signingSecret].filter((s): s is string => !!s);
    const logger = boltLogger(opts.logger, secrets);
    const clientOptions = {
      ...(opts.apiUrl ? { slackApiUrl: opts.apiUrl.endsWith("/") ? opts.apiUrl : `${opts.apiUrl}/` } : {}),
      logger,
      logLevel: LogLevel.WARN,
    };
    if (opts.mode === "socket") {
      this.socket = new SocketModeReceiver({
        appToken: opts.appToken ?? "",
        logger,
        logLevel: LogLevel.WARN,
        installerOptions: { clientOptions },
      });
    }
    const receiver =
      this.socket ??
      new HTTPReceiver({ signingSecret: opts.signingSecret ?? "", endpoints: "/slack/events", logger });
    this.app = new App({ token: opts.token, receiver, clientOptions, logger, deferInitialization: true });
    this.client = this.app.client;
    this.status = new ThreadStatus(this.client, opts.logger, (err) => this.explain(err));
  }

  botNames(): string[] {
    return this.bot.name ? [this.bot.name] : [];
  }

  async start(onMessage: (msg: InboundMessage) => void, host?: AdapterHost): Promise<void> {
    this.host = host;
    try {
      const auth = await this.client.auth.test();
      this.bot = { userId: auth.user_id ?? "", name: auth.user ?? "" };
      await this.app.init();
    } catch (err) {
      throw new Error(`slack: ${this.explain(err)}`);
    }
    const deliver = async (event: SlackMessageEvent) => {
      try {
        const msg = normaliseEvent(event, this.bot);
        if (!msg) return;
        msg.userName = await this.nameOf(msg.userId);
        if (msg.attachments.length) msg.text = await this.withFiles(msg);
        onMessage(msg);
      } catch (err) {
        this.opts.logger.warn("slack event skipped", { error: this.explain(err) });
      }
    };
    this.app.event("message", async ({ event }) => deliver(event as SlackMessageEvent));
    this.app.event("app_mention", async ({ event }) => deliver(event as SlackMessageEvent));
    this.app.action(/^ap:[osd]:/, async ({ ack, body }) => {
      // Acknowledged at once (Slack wants an answer within 3 s); the answer itself is the turn's.
      await ack();
      const msg = normalisePress(body as BlockActionsBody);
      if (!msg) return void this.opts.logger.warn("slack button skipped");
      msg.userName = await this.nameOf(msg.userId);
      onMessage(msg);
    });
    this.app.error(async (err) => this.opts.logger.warn("slack error", { error: this.explain(err) }));
    try {
      await this.app.start(
        ...(this.opts.http ? [{ host: this.opts.http.host, port: this.opts.http.port }] : []),
      );
    } catch (err) {
      throw new Error(`slack: ${this.explain(err)}`);
    }
    this.watchSocket();
  }

  /** The HTTP receiver's address (HTTP mode). */
  get httpPort(): number | undefined {
    const server = (this.app as unknown as { receiver?: { server?: import("node:http").Server } }).receiver
      ?.server;
    const a = server?.address();
    return typeof a === "object" && a ? a.port : undefined;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.app.stop().catch(() => {});
  }

  render(markdown: string): string {
    return toMrkdwn(markdown);
  }

  send(to: ChatAddress, text: string, opts: SendOptions = {}): Promise<SendResult> {
    const lane = laneOf(to);
    return this.queue.run(lane, async () => {
      opts.handingOver?.();
      // A part of the turn's answer (it has an outbox key) ends the thread's status line.
      if (opts.key) await this.status.clear(to);
      // The streamed draft becomes the reply's first part; an ask is a new message (a post
      // notifies, an edit does not), and the draft goes.
      const d = this.drafts.take(lane);
      if (d?.messageId !== undefined && opts.buttons?.length)
        await this.remove(to, d.messageId).catch(() => {});
      else if (d?.messageId !== undefined) {
        if (d.shown !== text)
          await this.call(() =>
            this.client.chat.update({ channel: to.chatId, ts: d.messageId as string, text }),
          );
        return { messageId: d.messageId };
      }
      const blocks = opts.buttons?.length ? this.approvalBlocks(text, opts) : undefined;
      if (blocks && text.length > MAX_SECTION) await this.post(to, text);
      const ts = await this.post(to, blocks && text.length > MAX_SECTION ? "Approve?" : text, blocks);
      return { messageId: ts };
    });
  }

  /** The file shared in the conversation (its thread), with the caption as its message. */
  sendFile(to: ChatAddress, file: OutboundFile, opts: SendOptions = {}): Promise<SendResult> {
    return this.queue.run(laneOf(to), async () => {
      opts.handingOver?.();
      const base = {
        channel_id: to.chatId,
        file: file.data,
        filename: file.name,
        ...(file.caption ? { initial_comment: file.caption.slice(0, SLACK_MAX_TEXT) } : {}),
      };
      const res = (await this.call(() =>
        this.client.files.uploadV2(to.threadId ? { ...base, thread_ts: to.threadId } : base),
      )) as { files?: { files?: { id?: string }[] }[] };
      const id = res.files?.[0]?.files?.[0]?.id;
      return id ? { messageId: id } : {};
    });
  }

  /** The thread's status line ("<app> is thinking…"), where the chat is a thread. */
  typing(to: ChatAddress): void {
    void this.queue.latest(laneOf(to), "typing", () => this.status.show(to)).catch(() => {});
  }

  draft(to: ChatAddress, text: string): void {
    const lane = laneOf(to);
    const draft = this.drafts.of(lane);
    if (text === "") void this.status.clear(to);
    this.queue
      .latest(lane, "draft", () =>
        this.drafts.show(lane, draft, text, {
          post: (t) => this.post(to, t),
          edit: async (ts, t) =>
            void (await this.call(() => this.client.chat.update({ channel: to.chatId, ts, text: t }))),
          remove: (ts) => this.remove(to, ts),
        }),
      )
      .catch((err) => this.opts.logger.warn("slack draft not shown", { error: this.explain(err) }));
  }

  async edit(to: ChatAddress, messageId: string, text: string): Promise<void> {
    await this.queue.run(laneOf(to), () =>
      this.call(() =>
        this.client.chat.update({ channel: to.chatId, ts: messageId, text: text.slice(0, SLACK_MAX_TEXT) }),
      ),
    );
  }

  private approvalBlocks(text: string, opts: SendOptions): object[] {
    const buttons = (opts.buttons ?? []).map((b) => ({
      type: "button",
      text: { type: "plain_text", text: b.label.slice(0, 75) },
      action_id: approvalData(b.action),
      ...(STYLE[b.action.answer] ? { style: STYLE[b.action.answer] } : {}),
    }));
    const section = text.length <= MAX_SECTION ? [{ type: "section", text: { type: "mrkdwn", text } }] : [];
    return [...section, { type: "actions", block_id: "approval", elements: buttons }];
  }

  private async post(to: ChatAddress, text: string, blocks?: object[]): Promise<string> {
    const res = await this.call(() =>
      this.client.chat.postMessage({
        ...placeOf(to),
        text,
        ...(blocks ? { blocks } : {}),
        unfurl_links: false,
      }),
    );
    if (!res.ts) throw new Error("chat.postMessage gave no ts");
    return res.ts;
  }

  private async remove(to: ChatAddress, ts: string): Promise<void> {
    await this.call(() => this.client.chat.delete({ channel: to.chatId, ts }));
  }

  /** A Web API call; a token Slack no longer accepts stops the adapter (the others keep running). */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      const code = platformCode(err);
      if (code && DEAD_TOKEN.has(code))
        this.died(`the bot token in ${this.opts.tokenEnv} was refused (${code})`);
      throw new Error(this.explain(err));
    }
  }

  private died(reason: string): void {
    if (this.stopping) return;
    this.stopping = true;
    this.host?.stopped?.(`slack: ${reason}`);
    void this.app.stop().catch(() => {});
  }

  /** Socket Mode's connection state for the dashboard; a reconnect refused for good stops the adapter. */
  private watchSocket(): void {
    const client = this.socket?.client;
    if (!client) return;
    client.on("connected", () => this.host?.health?.("connected"));
    client.on("reconnecting", () => {
      if (!this.stopping) this.host?.health?.("degraded", "the Socket Mode connection dropped; reconnecting");
    });
    // The client's reconnects call start() with nothing to catch a refusal (an unhandled rejection).
    const start = client.start.bind(client);
    client.start = () =>
      start().catch((err: unknown) => {
        this.died(`Socket Mode could not reconnect: ${this.explain(err)}`);
        return undefined as never;
      });
  }

  /** Downloads the message's files into the files folder and says where they are. */
  private withFiles(msg: InboundMessage): Promise<string> {
    const origins = fileOrigins(this.opts.apiUrl);
    return withSavedAttachments(msg, {
      dir: this.opts.filesDir,
      maxBytes: SLACK_MAX_FILE,
      fetch: (a) => downloadPrivate(a, this.opts.token, origins),
      explain: (err) => this.explain(err),
    });
  }

  private async nameOf(userId: string): Promise<string> {
    const known = this.names.get(userId);
    if (known) return known;
    try {
      const res = await this.client.users.info({ user: userId });
      const p = res.user?.profile;
      const name = p?.display_name || p?.real_name || res.user?.name || userId;
      this.names.set(userId, name);
      return name;
    } catch {
      return userId;
    }
  }

  /** What went wrong, for a person: never a token or the signing secret. */
  private explain(err: unknown): string {
    const code = platformCode(err);
    let text: string;
    if (code && DEAD_TOKEN.has(code))
      text = `the token in ${this.opts.mode === "socket" && /apps\.connections/.test(String(err)) ? "the app token variable" : this.opts.tokenEnv} was refused (${code}): it is wrong or was revoked`;
    else if (code) text = `Slack answered ${code}`;
    else text = err instanceof Error ? err.message : String(err);
    for (const s of [this.opts.token, this.opts.appToken, this.opts.signingSecret])
      if (s) text = text.split(s).join("<secret>");
    return text;
  }
}

function platformCode(err: unknown): string | undefined {
  const e = err as { code?: string; data?: { error?: string } };
  return e?.code === webApi.ErrorCode.PlatformError ? e.data?.error : undefined;
}
