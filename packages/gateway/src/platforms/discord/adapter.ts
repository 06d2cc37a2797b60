// Discord through discord.js (SPEC G1): the Gateway WebSocket for events, REST (discord.js's own
// client) for sends. @discordjs/ws resumes a dropped session (the events missed in between are
// replayed) and treats a heartbeat that gets no ACK as a zombie connection it reconnects; an
// unrecoverable close (a revoked token: 4004) stops this adapter alone. Every call to a channel
// (sends, draft edits, typing) goes through one per-channel queue; a 429 is waited out by
// @discordjs/rest inside the call, so nothing else reaches that channel before `retry_after`.
// Approvals carry buttons keyed by the request id; the chat's commands are slash commands.
import { createHash, randomBytes } from "node:crypto";
import type { Logger } from "@iris/llm";
import {
  Client,
  DiscordAPIError,
  DiscordjsError,
  Events,
  GatewayIntentBits,
  type Message,
  Partials,
  RateLimitError,
  type RESTOptions,
  Routes,
} from "discord.js";
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
import { normaliseCommand, slashCommands } from "./commands.js";
import { approvalData, normaliseMessage, normalisePress, PLATFORM } from "./normalise.js";

export interface DiscordOptions {
  token: string;
  /** Where the token came from, for error messages (the token itself is never shown). */
  tokenEnv: string;
  apiBase?: string;
  /** The Gateway's URL instead of the one /gateway/bot names (a proxy). */
  gatewayUrl?: string;
  /** Where attachments sent to the bot are saved. */
  filesDir: string;
  logger: Logger;
  /** How long start() waits for READY. */
  readyTimeoutMs?: number;
  /** How long one REST call may take before @discordjs/rest gives it up and tries again. */
  requestTimeoutMs?: number;
}

export const DISCORD_MAX_CONTENT = 2000;
const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** A bot's upload limit in a server without boosts and in DMs. */
const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** The channel a message to `to` goes to: the thread, where there is one. */
const channelOf = (to: ChatAddress) => to.threadId ?? to.chatId;

/**
 * The nonce of one message create (Discord: at most 25 characters). With `enforce_nonce`, a repeat
 * of the create (REST's own retry after a timeout, or a resend of the same outbox part) returns
 * the message already made instead of posting it twice.
 */
const nonceFor = (key?: string) =>
  (key ? createHash("sha256").update(key).digest("base64url") : randomBytes(19).toString("base64url")).slice(
    0,
    25,
  );

const STYLE = { once: 3, session: 1, deny: 4 } as const; // success, primary, danger

export class DiscordAdapter implements PlatformAdapter {
  readonly platform = PLATFORM;
  readonly idempotentSend = false;
  readonly reportsHandOver = true;
  readonly limits: PlatformLimits = {
    maxMessage: DISCORD_MAX_CONTENT,
    measure: utf16Length,
    minEditIntervalMs: 1000,
    // "typing…" lasts ten seconds; the runner shows it again this often until the first token.
    typingRepeatMs: 8000,
    maxFileBytes: MAX_UPLOAD_BYTES,
  };
  private readonly client: Client;
  // Five messages per five seconds in a channel (Discord's per-channel bucket).
  private readonly queue = new ChatQueue({
    intervalMs: () => 1000,
    retryAfterMs: (err) => (err instanceof RateLimitError ? err.retryAfter : undefined),
  });
  private readonly drafts = new EditedDrafts<string>(DISCORD_MAX_CONTENT);
  private stopping = false;

  constructor(private readonly opts: DiscordOptions) {
    this.client = new Client({
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.GuildMessages,
        GatewayIntentBits.DirectMessages,
        GatewayIntentBits.MessageContent,
      ],
      // A DM channel is not cached before its first message: without this its messages are dropped.
      partials: [Partials.Channel],
      rest: {
        // Node's own fetch, not @discordjs/rest's undici 6: a client loaded before it (Slack's
        // socket mode, undici 7) may own the process's global dispatcher, which cannot send
        // undici 6's multipart bodies (file uploads failed with "action is not a function").
        makeRequest: fetch as unknown as NonNullable<RESTOptions["makeRequest"]>,
        ...(opts.apiBase ? { api: opts.apiBase } : {}),
        ...(opts.requestTimeoutMs ? { timeout: opts.requestTimeoutMs } : {}),
      },
    });
    if (opts.gatewayUrl) this.useGatewayUrl(opts.gatewayUrl);
  }

  botNames(): string[] {
    return this.client.user ? [this.client.user.username] : [];
  }

  async start(onMessage: (msg: InboundMessage) => void, host?: AdapterHost): Promise<void> {
    const { client } = this;
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("discord: the Gateway sent no READY")),
        this.opts.readyTimeoutMs ?? 30_000,
      );
      client.once(Events.ClientReady, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    try {
      await client.login(this.opts.token);
      await ready;
    } catch (err) {
      await client.destroy().catch(() => {});
      throw new Error(`discord: ${this.explain(err)}`);
    }
    const bot = { id: client.user?.id ?? "", username: client.user?.username ?? "" };
    client.on(Events.MessageCreate, (m) => void this.onDiscordMessage(m, bot, onMessage));
    await client.rest
      .put(Routes.applicationCommands(client.application?.id ?? bot.id), { body: slashCommands() })
      .catch((err) =>
        this.opts.logger.warn("discord slash commands not registered", { error: this.explain(err) }),
      );
    client.on(Events.InteractionCreate, async (i) => {
      if (i.isChatInputCommand()) {
        // Answered at once with the command as used (Discord wants an answer within 3 s); the
        // command's own answer is a message in the channel.
        const msg = normaliseCommand(i);
        await i
          .reply({ content: msg.text.slice(0, DISCORD_MAX_CONTENT), allowedMentions: { parse: [] } })
          .catch((err) =>
            this.opts.logger.warn("discord command not acknowledged", { error: this.explain(err) }),
          );
        return onMessage(msg);
      }
      if (!i.isButton()) return;
      const msg = normalisePress(i);
      // Acknowledged at once (Discord wants an answer within 3 s); the answer itself is the turn's.
      await i
        .deferUpdate()
        .catch((err) =>
          this.opts.logger.warn("discord press not acknowledged", { error: this.explain(err) }),
        );
      if (!msg) return void this.opts.logger.warn("discord button skipped", { data: i.customId });
      onMessage(msg);
    });
    client.on(Events.ShardDisconnect, (event) => {
      if (this.stopping) return;
      host?.stopped?.(
        `discord: ${event.code === 4004 ? `the bot token in ${this.opts.tokenEnv} was refused (4004 Authentication failed): it is wrong or was reset` : `the Gateway closed with ${event.code}`}`,
      );
    });
    client.on(Events.Error, (err) => this.opts.logger.warn("discord error", { error: this.explain(err) }));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.client.destroy().catch(() => {});
  }

  send(to: ChatAddress, text: string, opts: SendOptions = {}): Promise<SendResult> {
    const channel = channelOf(to);
    const components = opts.buttons?.length
      ? [
          {
            type: 1,
            components: opts.buttons.map((b) => ({
              type: 2,
              style: STYLE[b.action.answer],
              label: b.label.slice(0, 80),
              custom_id: approvalData(b.action),
            })),
          },
        ]
      : undefined;
    return this.queue.run(channel, async () => {
      opts.handingOver?.();
      // The streamed draft becomes the reply's first part; an ask is a new message (a mention
      // notifies, an edit does not), and the draft goes.
      const d = this.drafts.take(channel);
      if (d?.messageId !== undefined && components)
        await this.client.rest.delete(Routes.channelMessage(channel, d.messageId)).catch(() => {});
      else if (d?.messageId !== undefined) {
        if (d.shown !== text)
          await this.client.rest.patch(Routes.channelMessage(channel, d.messageId), {
            body: { content: text },
          });
        return { messageId: d.messageId };
      }
      const m = (await this.client.rest.post(Routes.channelMessages(channel), {
        body: {
          content: text,
          ...(components ? { components } : {}),
          allowed_mentions: { parse: [] },
          nonce: nonceFor(opts.key),
          enforce_nonce: true,
        },
      })) as { id: string };
      return { messageId: m.id };
    });
  }

  /**
   * A message with the file attached (multipart: `payload_json` and `files[0]`, named in
   * `attachments`), its caption as the content; the nonce drops a repeated create here too.
   */
  sendFile(to: ChatAddress, file: OutboundFile, opts: SendOptions = {}): Promise<SendResult> {
    const channel = channelOf(to);
    return this.queue.run(channel, async () => {
      opts.handingOver?.();
      const m = (await this.client.rest.post(Routes.channelMessages(channel), {
        body: {
          content: (file.caption ?? "").slice(0, DISCORD_MAX_CONTENT),
          attachments: [{ id: 0, filename: file.name }],
          allowed_mentions: { parse: [] },
          nonce: nonceFor(opts.key),
          enforce_nonce: true,
        },
        files: [{ name: file.name, data: file.data }],
      })) as { id: string };
      return { messageId: m.id };
    });
  }

  draft(to: ChatAddress, text: string): void {
    const channel = channelOf(to);
    const draft = this.drafts.of(channel);
    const rest = this.client.rest;
    this.queue
      .latest(channel, "draft", () =>
        this.drafts.show(channel, draft, text, {
          post: async (content) =>
            (
              (await rest.post(Routes.channelMessages(channel), {
                body: { content, allowed_mentions: { parse: [] }, nonce: nonceFor(), enforce_nonce: true },
              })) as { id: string }
            ).id,
          edit: async (id, content) =>
            void (await rest.patch(Routes.channelMessage(channel, id), { body: { content } })),
          remove: async (id) => void (await rest.delete(Routes.channelMessage(channel, id))),
        }),
      )
      .catch((err) => this.opts.logger.warn("discord draft not shown", { error: this.explain(err) }));
  }

  async edit(to: ChatAddress, messageId: string, text: string): Promise<void> {
    const channel = channelOf(to);
    await this.queue.run(channel, () =>
      this.client.rest.patch(Routes.channelMessage(channel, messageId), {
        body: { content: text.slice(0, DISCORD_MAX_CONTENT) },
      }),
    );
  }

  /** Shows "typing…" once (it lapses by itself; the runner repeats it, SPEC G1). */
  typing(to: ChatAddress): void {
    const channel = channelOf(to);
    void this.queue
      .latest(channel, "typing", () => this.client.rest.post(Routes.channelTyping(channel)).then(() => {}))
      .catch(() => {});
  }

  private async onDiscordMessage(
    m: Message,
    bot: { id: string; username: string },
    onMessage: (msg: InboundMessage) => void,
  ): Promise<void> {
    try {
      const msg = normaliseMessage(m, bot);
      if (!msg) return;
      if (msg.attachments.length) msg.text = await this.withFiles(msg);
      onMessage(msg);
    } catch (err) {
      this.opts.logger.warn("discord message skipped", { id: m.id, error: this.explain(err) });
    }
  }

  /** Downloads the message's attachments into the files folder and says where they are. */
  private withFiles(msg: InboundMessage): Promise<string> {
    return withSavedAttachments(msg, {
      dir: this.opts.filesDir,
      maxBytes: MAX_FILE_BYTES,
      fetch: (a) => download(a.url ?? ""),
      explain: (err) => this.explain(err),
    });
  }

  /**
   * discord.js connects to the URL /gateway/bot answers (it has no option for another): that
   * answer keeps its shards and session limits and gets `url` replaced. A resume goes to the
   * resume_gateway_url READY named, as with Discord's own.
   */
  private useGatewayUrl(url: string): void {
    const rest = this.client.rest;
    const get = rest.get.bind(rest);
    rest.get = (async (route, options) => {
      const answer = await get(route, options);
      return route === Routes.gatewayBot() ? { ...(answer as object), url } : answer;
    }) as typeof rest.get;
  }

  /** What went wrong, for a person: never the token. */
  private explain(err: unknown): string {
    let text: string;
    if (err instanceof DiscordjsError && err.code === "TokenInvalid")
      text = `the bot token in ${this.opts.tokenEnv} was refused (401 Unauthorized): it is wrong or was reset`;
    else if (err instanceof DiscordAPIError) text = `${err.status} ${err.message} (code ${err.code})`;
    else text = err instanceof Error ? err.message : String(err);
    return text.split(this.opts.token).join("<token>");
  }
}
