// The one interface every platform implements (SPEC G1; ARCHITECTURE.md "Each gateway adapter
// passes one contract suite"). The runner does everything else: authorisation, mentions,
// sessions, splitting, dedupe, the outbox.

import type { ApprovalAction, ChatAddress, InboundMessage } from "./message.js";
import type { GatewayIdentities } from "./state/index.js";

/** What the runner did with an inbound message ("duplicate": it was taken in before). */
export type HandleOutcome = "duplicate" | "refused" | "ignored" | "command" | "answer" | "queued";

/** Where an adapter hands each inbound message: the runner's returns a Promise<HandleOutcome>. */
export type OnMessage = (msg: InboundMessage) => unknown;

export interface SendResult {
  /** The platform's id of the sent message, when it gives one (needed to edit it later). */
  messageId?: string;
}

export interface PlatformLimits {
  /** The longest message, measured by `measure` (characters, or bytes of a protocol line). */
  maxMessage: number;
  /** How a text's size counts against `maxMessage`. */
  measure(text: string): number;
  /** The shortest time between two edits of one message (flood limits), in ms. */
  minEditIntervalMs: number;
  /** How long the platform shows one typing indicator, less a margin (default 4 s). */
  typingRepeatMs?: number;
  /** The largest file a bot may send (where it can send files at all). */
  maxFileBytes?: number;
}

/** A file the agent sends to a chat (the send_file tool). */
export interface OutboundFile {
  /** The file's name as the chat shows it (no folder). */
  name: string;
  data: Buffer;
  /** A line shown with the file; the platform's message limit applies. */
  caption?: string;
}

/** One line of a chat's past, from the store (a web page reloading shows them again). */
export interface HistoryLine {
  role: "user" | "assistant";
  text: string;
}

/** What the runner offers an adapter that keeps its own view of a chat (the web chat). */
export interface AdapterHost {
  /** The conversation of the chat `userId` sees at `to`, oldest first. */
  history(to: ChatAddress, chatType: "dm" | "group", userId: string): Promise<HistoryLine[]>;
  /** The gateway's identities in the store (the web chat's per-user logins). */
  identities?: GatewayIdentities;
  /** Pairing for strangers the platform meets itself (the web chat's "ask for access"). */
  pairing?: PairingPort;
  /**
   * The adapter stopped for good while running (its token was revoked, another process took
   * its bot): the other platforms keep running, and `iris gateway status` shows the reason.
   */
  stopped?(reason: string): void;
  /** The connection was lost (degraded, with why) or is back (connected): shown on the dashboard. */
  health?(state: "connected" | "degraded", error?: string): void;
  /**
   * Something at start the operator should see on the terminal, not only in the log: what cannot
   * work as configured (a voice note's missing STT endpoint or ffmpeg).
   */
  warn?(line: string): void;
  /** Sends through a running platform's outbox (a webhook's answer to a chat), once per key. */
  post?(logicalKey: string, to: ChatAddress, text: string): Promise<void>;
}

/** The runner's pairing codes (`iris pairing approve CODE`), for an adapter's own strangers. */
export interface PairingPort {
  /** The stranger's code (the same one while it is valid), or why none can be given now. */
  request(
    platform: string,
    userId: string,
    userName: string,
  ): Promise<{ ok: true; code: string; expiresAt: number } | { ok: false; reason: string }>;
  /** The name the owner approved for `userId`, once approved. */
  approvedName(platform: string, userId: string): Promise<string | undefined>;
  /** Forgets an approval that has been turned into a login. */
  forget(platform: string, userId: string): Promise<void>;
}

/** A button under a message that answers an approval by its request id (SPEC G2). */
export interface ActionButton {
  label: string;
  action: ApprovalAction;
}

export interface SendOptions {
  /** The outbox's key of this part: a platform that shows it can drop a repeat (idempotent send). */
  key?: string;
  /** Buttons under the message, where the platform has them (the text still says /approve). */
  buttons?: readonly ActionButton[];
  /**
   * Called right before the request that delivers this part leaves for the platform (after any
   * wait in the chat's queue), and awaited: the mark is stored before the request leaves. An
   * adapter that calls it says so with `reportsHandOver`.
   */
  handingOver?: () => Promise<void>;
}

export interface PlatformAdapter {
  readonly platform: string;
  readonly limits: PlatformLimits;
  /** Whether a send can be repeated without showing twice (an idempotency key). */
  readonly idempotentSend: boolean;
  /**
   * Whether send() calls `handingOver` before its platform request: a part a crash left before
   * that point never reached the platform and is sent again on restart (SPEC U3).
   */
  readonly reportsHandOver?: boolean;
  /** Names the bot answers to in group chats (its nick, its display name). */
  botNames(): string[];
  /**
   * Users the platform itself authenticated (the web chat's login token): the runner's
   * allowlists and pairing do not apply to them.
   */
  readonly authenticated?: boolean;
  /**
   * Connects and delivers every inbound event to `onMessage` until stop(). Its promise tells
   * what the runner did (a webhook answers a redelivery after a restart as a duplicate).
   */
  start(onMessage: OnMessage, host?: AdapterHost): Promise<void>;
  stop(): Promise<void>;
  send(to: ChatAddress, text: string, opts?: SendOptions): Promise<SendResult>;
  /** The platform's own formatting of a Markdown reply (IRC: formatting codes); absent: Markdown as is. */
  render?(markdown: string): string;
  /**
   * Shows the reply being written, replacing the previous draft ("" removes it); the delivered
   * reply replaces the draft. Absent where the platform cannot stream. Never recorded.
   */
  draft?(to: ChatAddress, text: string): void;
  /**
   * Shows the platform's typing indicator in `to` (it lapses by itself); the runner repeats it
   * from a turn's start until the first token. Absent where the platform has none (IRC).
   */
  typing?(to: ChatAddress): void | Promise<void>;
  /** Edits a sent message in place; absent where the platform cannot. */
  edit?(to: ChatAddress, messageId: string, text: string): Promise<void>;
  /**
   * Sends a file as an attachment (a picture shows as one); absent where the platform cannot.
   * Calls `opts.handingOver` as send() does.
   */
  sendFile?(to: ChatAddress, file: OutboundFile, opts?: SendOptions): Promise<SendResult>;
}
