// Matrix through matrix-js-sdk (SPEC G1): the client's sync loop, from the sync token saved by the
// last run (so what was said while the gateway was down arrives, and nothing twice: each event id
// is claimed once); a fresh start takes no history. Rooms of two members are DMs; in larger rooms
// the bot answers when mentioned (m.mentions, its name, or a reply to it). A thread is its own
// session. Sends carry a transaction id made from the outbox's key, so a repeated send after a
// crash is the same event; the reply streams into one message edited in place (m.replace), which
// the reply itself then edits under its own transaction id; progress lines are edited too.
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Logger } from "@iris/llm";
import {
  ClientEvent,
  createClient,
  type MatrixClient,
  type MatrixEvent,
  MemoryStore,
  RoomEvent,
  SyncState,
} from "matrix-js-sdk";
import { logger as sdkLogger } from "matrix-js-sdk/lib/logger.js";
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
import type { Speech } from "../voice/speech.js";
import { laneOf, replacement, textContent } from "./content.js";
import { fileContent, isMedia, MATRIX_MAX_UPLOAD, readMedia, voiceContent } from "./media.js";

export const PLATFORM = "matrix";
/** Longer replies are split (an event holds 65,536 bytes, its body with the rest). */
const MATRIX_MAX_TEXT = 16_000;

/** The same outbox key is the same transaction: the homeserver keeps one event for it. */
const txnOf = (key: string | undefined) =>
  key ? `iris-${createHash("sha256").update(key).digest("hex").slice(0, 32)}` : `iris-${randomUUID()}`;

// The SDK logs through loglevel to the console (stdout): silenced, stdout is the user's.
(sdkLogger as unknown as { methodFactory: () => () => void; rebuild?: () => void }).methodFactory =
  () => () => {};
(sdkLogger as unknown as { rebuild?: () => void }).rebuild?.();

export interface MatrixOptions {
  homeserver: string;
  userId: string;
  token: string;
  tokenEnv: string;
  /** Where the sync token is kept between runs. */
  syncFile: string;
  logger: Logger;
  /** Where received media are saved. */
  filesDir: string;
  /** Voice notes transcribed in and spoken out (the `voice:` section). */
  speech?: Speech;
}

/** The SDK's in-memory store, with the sync token of the last fully handled sync kept in a file. */
class ResumingStore extends MemoryStore {
  constructor(private readonly file: string) {
    super();
  }
  private saved(): string | null {
    try {
      return readFileSync(this.file, "utf8").trim() || null;
    } catch {
      return null;
    }
  }
  override async getSavedSyncToken(): Promise<string | null> {
    return this.saved();
  }
  override async getSavedSync() {
    const t = this.saved();
    return t
      ? { nextBatch: t, roomsData: { join: {}, invite: {}, leave: {}, knock: {} }, accountData: [] }
      : null;
  }
  // The token is set before its sync's events are handled: the one before it is the last fully
  // handled one, and is what is saved (a crash replays at most one sync, claimed once).
  override setSyncToken(token: string): void {
    const previous = this.getSyncToken();
    super.setSyncToken(token);
    if (!previous) return;
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    writeFileSync(this.file, previous, { mode: 0o600 });
  }
}

export class MatrixAdapter implements PlatformAdapter {
  readonly platform = PLATFORM;
  readonly idempotentSend = true;
  readonly limits: PlatformLimits = {
    maxMessage: MATRIX_MAX_TEXT,
    measure: utf16Length,
    minEditIntervalMs: 1000,
    maxFileBytes: MATRIX_MAX_UPLOAD,
  };
  private client: MatrixClient | undefined;
  private readonly mine = new Set<string>();
  private readonly members = new Map<string, number>();
  /** Rooms whose latest message was a voice note (answered with one too). */
  private readonly voiceIn = new Set<string>();
  /** Sends and draft edits of one thread, in order. */
  private readonly queue = new ChatQueue({ intervalMs: () => 0, retryAfterMs: () => undefined });
  private readonly drafts = new EditedDrafts<string>(MATRIX_MAX_TEXT);

  constructor(private readonly opts: MatrixOptions) {}

  botNames(): string[] {
    const local = this.opts.userId.slice(1).split(":")[0] ?? "";
    return [local, this.opts.userId];
  }

  async start(onMessage: (msg: InboundMessage) => void, host?: AdapterHost): Promise<void> {
    for (const w of this.opts.speech?.warnings() ?? []) {
      this.opts.logger.warn(w);
      host?.warn?.(w);
    }
    const resuming = await new ResumingStore(this.opts.syncFile).getSavedSyncToken();
    const client = createClient({
      baseUrl: this.opts.homeserver,
      accessToken: this.opts.token,
      userId: this.opts.userId,
      store: new ResumingStore(this.opts.syncFile),
    });
    this.client = client;
    client.on(RoomEvent.Timeline, (event, room, toStart) => {
      if (toStart || !room) return;
      void this.receive(event, room.roomId).then((m) => m && onMessage(m));
    });
    const ready = new Promise<void>((resolve, reject) => {
      client.on(ClientEvent.Sync, (state, _prev, data) => {
        if (state === SyncState.Prepared) resolve();
        if (state === SyncState.Error) {
          const err = data?.error as { errcode?: string; httpStatus?: number } | undefined;
          if (err?.errcode === "M_UNKNOWN_TOKEN") {
            const why = `matrix: the access token in ${this.opts.tokenEnv} was refused (M_UNKNOWN_TOKEN)`;
            reject(new Error(why));
            host?.stopped?.(why);
            void client.stopClient();
          } else host?.health?.("degraded", "the sync with the homeserver is failing");
        }
        if (state === SyncState.Syncing) host?.health?.("connected");
        if (state === SyncState.Reconnecting) host?.health?.("degraded", "the homeserver cannot be reached");
      });
    });
    // A fresh start takes no history; a resumed one gets everything after the saved token.
    await client.startClient({ initialSyncLimit: resuming ? 50 : 0, lazyLoadMembers: false });
    await ready;
  }

  async stop(): Promise<void> {
    this.client?.stopClient();
  }

  async send(to: ChatAddress, text: string, opts: SendOptions = {}): Promise<SendResult> {
    const txn = txnOf(opts.key);
    const lane = laneOf(to);
    return this.queue.run(lane, async () => {
      const d = this.drafts.take(lane);
      let id: string;
      if (d?.messageId !== undefined) {
        // The streamed draft becomes the reply: an edit under the reply's own transaction, so a
        // repeat after a crash (no draft known then) is that same event, not a second message.
        await this.http(to.chatId, "m.room.message", txn, replacement(d.messageId, text));
        id = d.messageId;
      } else {
        id = await this.http(to.chatId, "m.room.message", txn, textContent(to, text));
        this.mine.add(id);
      }
      await this.sendVoice(to, text, `${txn}-voice`);
      return { messageId: id };
    });
  }

  /** Uploads the file and sends it to the room (in the thread), as a picture or a file. */
  async sendFile(to: ChatAddress, file: OutboundFile, opts: SendOptions = {}): Promise<SendResult> {
    const txn = txnOf(opts.key);
    return this.queue.run(laneOf(to), async () => {
      const content = await fileContent(file, this.media());
      if (to.threadId) content["m.relates_to"] = { rel_type: "m.thread", event_id: to.threadId };
      const id = await this.http(to.chatId, "m.room.message", txn, content);
      this.mine.add(id);
      return { messageId: id };
    });
  }

  /** The reply as it is written: one message, edited (m.replace) as it grows. */
  draft(to: ChatAddress, text: string): void {
    this.drafts
      .stream(this.queue, laneOf(to), text, {
        post: async (t) => {
          const id = await this.http(to.chatId, "m.room.message", `iris-${randomUUID()}`, textContent(to, t));
          this.mine.add(id);
          return id;
        },
        edit: (id, t) => this.edit(to, id, t),
        remove: (id) => this.redact(to.chatId, id),
      })
      .catch((err) =>
        this.opts.logger.warn("matrix draft not shown", {
          error: String(err).split(this.opts.token).join("<token>"),
        }),
      );
  }

  /** The answer as a voice message too, where the room asked for it; a failure is logged only. */
  private async sendVoice(to: ChatAddress, text: string, txn: string): Promise<void> {
    const speech = this.opts.speech;
    if (!speech?.canSpeak) return;
    if (speech.config.reply_with_voice === "voice_in" && !this.voiceIn.has(to.chatId)) return;
    try {
      const content = await voiceContent(await speech.speak(text), this.media());
      if (to.threadId) content["m.relates_to"] = { rel_type: "m.thread", event_id: to.threadId };
      this.mine.add(await this.http(to.chatId, "m.room.message", txn, content));
    } catch (err) {
      this.opts.logger.warn("matrix: the voice answer was not sent", {
        error: String(err).split(this.opts.token).join("<token>"),
      });
    }
  }

  private media() {
    return { homeserver: this.opts.homeserver, token: this.opts.token, filesDir: this.opts.filesDir };
  }

  async edit(to: ChatAddress, messageId: string, text: string): Promise<void> {
    await this.http(to.chatId, "m.room.message", `iris-${randomUUID()}`, replacement(messageId, text));
  }

  /** PUT /rooms/{room}/redact/{event}/{txn}: a draft taken back (an interrupted turn). */
  private async redact(room: string, eventId: string): Promise<void> {
    const client = this.client;
    if (!client) throw new Error("matrix: not started");
    const path = `/rooms/${encodeURIComponent(room)}/redact/${encodeURIComponent(eventId)}/iris-${randomUUID()}`;
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's typed authedRequest needs its Method enum
    await client.http.authedRequest("PUT" as any, path, undefined, {});
  }

  typing(to: ChatAddress): void {
    void this.client?.sendTyping(to.chatId, true, 5000).catch(() => {});
  }

  /** PUT /rooms/{room}/send/{type}/{txn} (the SDK's sendEvent would queue and echo locally). */
  private async http(
    room: string,
    type: string,
    txn: string,
    content: Record<string, unknown>,
  ): Promise<string> {
    const client = this.client;
    if (!client) throw new Error("matrix: not started");
    const path = `/rooms/${encodeURIComponent(room)}/send/${encodeURIComponent(type)}/${encodeURIComponent(txn)}`;
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's typed authedRequest needs its Method enum
    const r = (await client.http.authedRequest("PUT" as any, path, undefined, content)) as {
      event_id?: string;
    };
    if (!r.event_id) throw new Error("matrix: the homeserver gave no event id");
    return r.event_id;
  }

  private async receive(event: MatrixEvent, roomId: string): Promise<InboundMessage | undefined> {
    if (event.getType() !== "m.room.message") return undefined;
    const sender = event.getSender();
    const id = event.getId();
    if (!sender || !id || sender === this.opts.userId) return undefined;
    const c = event.getContent() as Record<string, unknown>;
    const media = isMedia(c);
    if ((c.msgtype !== "m.text" && !media) || typeof c.body !== "string") return undefined;
    const rel = c["m.relates_to"] as
      | { rel_type?: string; event_id?: string; "m.in_reply_to"?: { event_id?: string } }
      | undefined;
    if (rel?.rel_type === "m.replace") return undefined; // an edit of an earlier message
    const mentions = (c["m.mentions"] as { user_ids?: unknown } | undefined)?.user_ids;
    const dm = (await this.memberCount(roomId)) <= 2;
    const replyTo = rel?.["m.in_reply_to"]?.event_id;
    const got = media ? await readMedia(c, id, this.media(), this.opts.speech) : undefined;
    if (got?.attachment.kind === "audio") this.voiceIn.add(roomId);
    else this.voiceIn.delete(roomId);
    return {
      platform: PLATFORM,
      chatType: dm ? "dm" : "group",
      chatId: roomId,
      ...(rel?.rel_type === "m.thread" && rel.event_id ? { threadId: rel.event_id } : {}),
      userId: sender,
      userName: sender,
      text: got ? got.line : c.body,
      attachments: got ? [got.attachment] : [],
      messageId: id,
      ...(Array.isArray(mentions) && mentions.includes(this.opts.userId) ? { mentionsBot: true } : {}),
      ...(replyTo && this.mine.has(replyTo) && rel?.rel_type !== "m.thread" ? { replyToBot: true } : {}),
    };
  }

  /** A room's joined members, asked once (the sync after a resume carries no member list). */
  private async memberCount(roomId: string): Promise<number> {
    const known = this.members.get(roomId);
    if (known !== undefined) return known;
    const r = (await this.client?.getJoinedRoomMembers(roomId).catch(() => undefined)) as
      | { joined?: object }
      | undefined;
    const n = r?.joined ? Object.keys(r.joined).length : 3;
    this.members.set(roomId, n);
    return n;
  }
}
