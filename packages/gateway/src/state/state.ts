// The gateway's own state (SPEC G1, G3, U3), the same on every engine: which chat maps to which
// session, which platform messages were seen (inbound dedupe across restarts and processes), the
// outbox of replies (recorded before a send, marked after), DM pairing, the logins a platform
// issues itself and the identities allowlisted names are bound to. Every check-and-set is one
// statement or one transaction, so two gateway processes can never both claim one message or
// one reply.
import { createHash, randomBytes, randomInt } from "node:crypto";

export interface OutboxRow {
  logicalKey: string;
  platform: string;
  chatId: string;
  threadId: string | null;
  state: "pending" | "sent" | "uncertain";
  text: string;
  /**
   * When the part was handed to the platform's API (its request left this process), or null
   * while it only waited in line here. A pending part never handed over can be sent again.
   */
  handedAt: number | null;
}

export interface InboundRow {
  platform: string;
  messageId: string;
  chatKey: string;
  chatId: string;
  threadId: string | null;
  receivedAt: number;
}

export interface InboundClaim {
  platform: string;
  messageId: string;
  chatKey: string;
  chatId: string;
  threadId?: string;
}

export interface PairingRow {
  code: string;
  platform: string;
  userId: string;
  userName: string;
  createdAt: number;
  expiresAt: number;
}

export interface ApprovedRow {
  platform: string;
  userId: string;
  userName: string;
  approvedAt: number;
}

export type IssueResult =
  | { ok: true; code: string; fresh: boolean; expiresAt: number }
  | { ok: false; reason: string };

export type ApproveResult = { ok: true; approved: ApprovedRow } | { ok: false; reason: string };

export interface IssueOptions {
  now?: number;
  ttlMs: number;
  maxPending: number;
}

/** The gateway's chats, inbound dedupe, outbox and pairing. */
export interface GatewayState {
  // Chat → session
  chatSession(chatKey: string): Promise<string | undefined>;
  setChatSession(chatKey: string, sessionId: string, now?: number): Promise<void>;
  /** The chat keys that start with `prefix` (e.g. "webchat:"), the latest first. */
  chatKeys(prefix: string): Promise<string[]>;
  /** A session split (compression) re-points every chat that followed the old id. */
  repointChats(from: string, to: string, now?: number): Promise<number>;

  // Inbound dedupe
  /** True the first time this platform message is seen, by any process, ever; false for a redelivery. */
  claimInbound(m: InboundClaim, now?: number): Promise<boolean>;
  finishInbound(platform: string, messageId: string, state?: "done" | "reported"): Promise<void>;
  /** Messages received but never answered (a crash in between). */
  unansweredInbound(platform: string): Promise<InboundRow[]>;
  /** Forgets dedupe rows older than `before` (answered ones only), keeping the table bounded. */
  pruneInbound(before: number): Promise<number>;

  // Outbox
  /**
   * Records a reply before it is sent. `fresh` means this call created the row: send it now.
   * Otherwise it was recorded before (a retry, a fallback, a restart, another process): its
   * state says whether it went out; the caller must not send it again.
   */
  recordOutbound(
    row: Omit<OutboxRow, "state" | "handedAt">,
    now?: number,
  ): Promise<OutboxRow & { fresh: boolean }>;
  outbound(logicalKey: string): Promise<OutboxRow | undefined>;
  markOutbound(logicalKey: string, state: "sent" | "uncertain", now?: number): Promise<void>;
  /** The part's request is leaving for the platform: from now on a crash leaves it uncertain. */
  markOutboundHanded(logicalKey: string, now?: number): Promise<void>;
  pendingOutbound(platform: string): Promise<OutboxRow[]>;
  pruneOutbound(before: number): Promise<number>;

  // Pairing
  /**
   * A code for a user who wrote a DM without being approved. The same user gets the same code
   * until it expires; at most `maxPending` codes wait per platform.
   */
  issueCode(platform: string, userId: string, userName: string, opts: IssueOptions): Promise<IssueResult>;
  pendingCodes(now?: number): Promise<PairingRow[]>;
  /** Approves a code; wrong codes count towards a lockout of all approvals for a while. */
  approveCode(code: string, now?: number): Promise<ApproveResult>;
  isApproved(platform: string, userId: string): Promise<boolean>;
  approvedUsers(): Promise<ApprovedRow[]>;
  /** Revokes by user id or user name (on any platform, or the given one). */
  revoke(user: string, platform?: string): Promise<number>;
}

export interface Login {
  name: string;
  /** A short id of the token (a prefix of its hash): part of the login cookie. */
  tokenId: string;
}

export interface LoginRow {
  name: string;
  createdAt: number;
}

export interface BindingRow {
  platform: string;
  name: string;
  identity: string;
  boundAt: number;
}

/**
 * Gateway identities (SPEC G1). A platform that logs its users in itself (the web chat) gives
 * each their own token: only its SHA-256 is stored. Bindings tie an allowlisted name (an IRC
 * nick) to the platform identity it first spoke from, so the name alone cannot be borrowed later.
 */
export interface GatewayIdentities {
  /** Creates the user, or gives them a new token (the old one stops working): the token, once. */
  issueLoginToken(
    platform: string,
    name: string,
    now?: number,
  ): Promise<{ token: string; replaced: boolean }>;
  removeLogin(platform: string, name: string): Promise<boolean>;
  logins(platform: string): Promise<LoginRow[]>;
  hasLogin(platform: string, name: string): Promise<boolean>;
  /** The user a token belongs to (looked up by its hash: no timing on the token itself). */
  login(platform: string, token: string): Promise<Login | undefined>;
  /** Whether `name` still holds the token `tokenId` (not removed, not re-issued). */
  holdsLogin(platform: string, name: string, tokenId: string): Promise<boolean>;
  /** Binds `name` to `identity` unless bound already: the identity it is bound to (the first). */
  bind(platform: string, name: string, identity: string, now?: number): Promise<string>;
  bindings(): Promise<BindingRow[]>;
  /** Forgets a binding (the next identity to speak under the name is bound instead). */
  unbind(name: string, platform?: string): Promise<number>;
}

/** A lock one process holds across machines (the store's advisory lock), lost with its holder. */
export interface ConnectionLock {
  /** Settles when the lock went with its database connection: stop what it guards at once. */
  readonly lost: Promise<Error>;
  release(): Promise<void>;
}

/** Both halves, as the gateway and its commands open them. */
export interface GatewayTables {
  state: GatewayState;
  identities: GatewayIdentities;
  /**
   * On a store shared by several processes (Postgres): takes the named lock when no other
   * process holds it (undefined when one does). Absent on SQLite, where the machine-wide lock
   * files (lock.ts) keep one process per bot.
   */
  tryLock?: (name: string) => Promise<ConnectionLock | undefined>;
  /**
   * On a shared store: this process's own lock, held while it lives. Rows it claimed are its own
   * while it is held; once lost, other processes may adopt them, so the process must stop.
   */
  processLock?: ConnectionLock;
}

/** Unambiguous characters (no 0/O, 1/I/L): a code read aloud or retyped survives. */
const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const PAIRING_CODE_LENGTH = 8;
/** Wrong codes tried at `iris pairing approve` within the window before approvals lock. */
export const PAIRING_MAX_FAILURES = 5;
export const PAIRING_LOCKOUT_MS = 60 * 60 * 1000;

export function newPairingCode(): string {
  let code = "";
  for (let i = 0; i < PAIRING_CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

export const normalCode = (code: string) => code.trim().toUpperCase();

export const lockedReason = (failures: number) =>
  `pairing approvals are locked after ${failures} wrong codes within an hour; try again later`;
export const tooManyReason = (pending: number) =>
  `too many pairing requests are waiting (${pending}); try again later`;

/** Iris login tokens start so (secret scanners and people can tell one). */
export const LOGIN_TOKEN_PREFIX = "irl_";
export const tokenHash = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
export const tokenIdOf = (hash: string) => hash.slice(0, 16);
export const newLoginToken = () => `${LOGIN_TOKEN_PREFIX}${randomBytes(24).toString("base64url")}`;
