// The gateway's durable state (migration 0012): chat → session map, inbound dedupe, the outbox,
// and DM pairing. Every check-and-set is one statement or one transaction, so two gateway
// processes (a --replace handover) can never both claim one message or one reply.
import { randomInt } from "node:crypto";
import type { Database } from "./driver.js";
import { type CachedDatabase, withStatementCache } from "./statement-cache.js";

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

/** Unambiguous characters (no 0/O, 1/I/L): a code read aloud or retyped survives. */
const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const PAIRING_CODE_LENGTH = 8;
/** Wrong codes tried at `iris pairing approve` within the window before approvals lock. */
export const PAIRING_MAX_FAILURES = 5;
export const PAIRING_LOCKOUT_MS = 60 * 60 * 1000;

export type IssueResult =
  | { ok: true; code: string; fresh: boolean; expiresAt: number }
  | { ok: false; reason: string };

export type ApproveResult = { ok: true; approved: ApprovedRow } | { ok: false; reason: string };

export class GatewayState {
  private readonly db: CachedDatabase;

  constructor(db: Database) {
    this.db = withStatementCache(db);
  }

  // Chat → session
  chatSession(chatKey: string): string | undefined {
    return this.db
      .prepare<{ session_id: string }>("SELECT session_id FROM gateway_chats WHERE chat_key = ?")
      .get(chatKey)?.session_id;
  }
  setChatSession(chatKey: string, sessionId: string, now = Date.now()): void {
    this.db
      .prepare(
        "INSERT INTO gateway_chats (chat_key, session_id, updated_at) VALUES (?, ?, ?) " +
          "ON CONFLICT(chat_key) DO UPDATE SET session_id = excluded.session_id, updated_at = excluded.updated_at",
      )
      .run(chatKey, sessionId, now);
  }
  /** The chat keys that start with `prefix` (e.g. "webchat:"): the chats the gateway has talked in. */
  chatKeys(prefix: string): string[] {
    return this.db
      .prepare<{ chat_key: string }>(
        "SELECT chat_key FROM gateway_chats WHERE substr(chat_key, 1, length(?)) = ? ORDER BY updated_at DESC",
      )
      .all(prefix, prefix)
      .map((r) => r.chat_key);
  }
  /** A session split (compression) re-points every chat that followed the old id. */
  repointChats(from: string, to: string, now = Date.now()): number {
    return this.db
      .prepare("UPDATE gateway_chats SET session_id = ?, updated_at = ? WHERE session_id = ?")
      .run(to, now, from).changes;
  }

  // Inbound dedupe
  /** True the first time this platform message is seen, ever; false for a redelivery. */
  claimInbound(
    m: { platform: string; messageId: string; chatKey: string; chatId: string; threadId?: string },
    now = Date.now(),
  ): boolean {
    return (
      this.db
        .prepare(
          "INSERT OR IGNORE INTO gateway_inbound (platform, message_id, chat_key, chat_id, thread_id, state, received_at) VALUES (?, ?, ?, ?, ?, 'received', ?)",
        )
        .run(m.platform, m.messageId, m.chatKey, m.chatId, m.threadId ?? null, now).changes === 1
    );
  }
  finishInbound(platform: string, messageId: string, state: "done" | "reported" = "done"): void {
    this.db
      .prepare("UPDATE gateway_inbound SET state = ? WHERE platform = ? AND message_id = ?")
      .run(state, platform, messageId);
  }
  /** Messages received but never answered (a crash in between). */
  unansweredInbound(platform: string): InboundRow[] {
    return this.db
      .prepare<{
        platform: string;
        message_id: string;
        chat_key: string;
        chat_id: string;
        thread_id: string | null;
        received_at: number;
      }>(
        "SELECT platform, message_id, chat_key, chat_id, thread_id, received_at FROM gateway_inbound WHERE state = 'received' AND platform = ? ORDER BY received_at",
      )
      .all(platform)
      .map((r) => ({
        platform: r.platform,
        messageId: r.message_id,
        chatKey: r.chat_key,
        chatId: r.chat_id,
        threadId: r.thread_id,
        receivedAt: r.received_at,
      }));
  }
  /** Forgets dedupe rows older than `before` (answered ones only), keeping the table bounded. */
  pruneInbound(before: number): number {
    return this.db
      .prepare("DELETE FROM gateway_inbound WHERE state <> 'received' AND received_at < ?")
      .run(before).changes;
  }

  // Outbox
  /**
   * Records a reply before it is sent. `fresh` means this call created the row: send it now.
   * Otherwise it was recorded before (a retry, a fallback, a restart, a second process): its
   * state says whether it went out; the caller must not send it again.
   */
  recordOutbound(
    row: Omit<OutboxRow, "state" | "handedAt">,
    now = Date.now(),
  ): OutboxRow & { fresh: boolean } {
    const tx = this.db.transaction(() => {
      const found = this.outbound(row.logicalKey);
      if (found) return { ...found, fresh: false };
      this.db
        .prepare(
          "INSERT INTO gateway_outbox (logical_key, platform, chat_id, thread_id, state, created_at, text) VALUES (?, ?, ?, ?, 'pending', ?, ?)",
        )
        .run(row.logicalKey, row.platform, row.chatId, row.threadId, now, row.text);
      return { ...row, state: "pending" as const, handedAt: null, fresh: true };
    });
    return tx.immediate();
  }
  outbound(logicalKey: string): OutboxRow | undefined {
    const r = this.db
      .prepare<{
        logical_key: string;
        platform: string;
        chat_id: string;
        thread_id: string | null;
        state: OutboxRow["state"];
        text: string;
        sent_at: number | null;
      }>(
        "SELECT logical_key, platform, chat_id, thread_id, state, text, sent_at FROM gateway_outbox WHERE logical_key = ?",
      )
      .get(logicalKey);
    return r
      ? {
          logicalKey: r.logical_key,
          platform: r.platform,
          chatId: r.chat_id,
          threadId: r.thread_id,
          state: r.state,
          text: r.text,
          handedAt: r.sent_at,
        }
      : undefined;
  }
  markOutbound(logicalKey: string, state: "sent" | "uncertain", now = Date.now()): void {
    this.db
      .prepare("UPDATE gateway_outbox SET state = ?, sent_at = ? WHERE logical_key = ?")
      .run(state, now, logicalKey);
  }
  /** The part's request is leaving for the platform: from now on a crash leaves it uncertain. */
  markOutboundHanded(logicalKey: string, now = Date.now()): void {
    // sent_at of a pending row is when it was handed over; of a settled row, when it settled.
    this.db
      .prepare("UPDATE gateway_outbox SET sent_at = ? WHERE logical_key = ? AND state = 'pending'")
      .run(now, logicalKey);
  }
  pendingOutbound(platform: string): OutboxRow[] {
    return this.db
      .prepare<{ logical_key: string }>(
        "SELECT logical_key FROM gateway_outbox WHERE state = 'pending' AND platform = ? ORDER BY created_at, logical_key",
      )
      .all(platform)
      .map((r) => this.outbound(r.logical_key))
      .filter((r): r is OutboxRow => r !== undefined);
  }
  pruneOutbound(before: number): number {
    return this.db
      .prepare("DELETE FROM gateway_outbox WHERE state <> 'pending' AND created_at < ?")
      .run(before).changes;
  }

  // Pairing
  /**
   * A code for a user who wrote a DM without being approved. The same user gets the same code
   * until it expires (writing again does not mint codes); at most `maxPending` codes wait per
   * platform, so a flood of strangers cannot fill the list.
   */
  issueCode(
    platform: string,
    userId: string,
    userName: string,
    opts: { now?: number; ttlMs: number; maxPending: number },
  ): IssueResult {
    const now = opts.now ?? Date.now();
    const tx = this.db.transaction((): IssueResult => {
      this.db.prepare("DELETE FROM gateway_pairing WHERE expires_at <= ?").run(now);
      const mine = this.db
        .prepare<{ code: string; expires_at: number }>(
          "SELECT code, expires_at FROM gateway_pairing WHERE platform = ? AND user_id = ?",
        )
        .get(platform, userId);
      if (mine) return { ok: true, code: mine.code, fresh: false, expiresAt: mine.expires_at };
      const pending =
        this.db
          .prepare<{ n: number }>("SELECT COUNT(*) AS n FROM gateway_pairing WHERE platform = ?")
          .get(platform)?.n ?? 0;
      if (pending >= opts.maxPending)
        return { ok: false, reason: `too many pairing requests are waiting (${pending}); try again later` };
      const code = newCode();
      const expiresAt = now + opts.ttlMs;
      this.db
        .prepare(
          "INSERT INTO gateway_pairing (code, platform, user_id, user_name, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
        )
        .run(code, platform, userId, userName, now, expiresAt);
      return { ok: true, code, fresh: true, expiresAt };
    });
    return tx.immediate();
  }
  pendingCodes(now = Date.now()): PairingRow[] {
    return this.db
      .prepare<{
        code: string;
        platform: string;
        user_id: string;
        user_name: string;
        created_at: number;
        expires_at: number;
      }>("SELECT * FROM gateway_pairing WHERE expires_at > ? ORDER BY created_at")
      .all(now)
      .map((r) => ({
        code: r.code,
        platform: r.platform,
        userId: r.user_id,
        userName: r.user_name,
        createdAt: r.created_at,
        expiresAt: r.expires_at,
      }));
  }
  /** Approves a code; wrong codes count towards a lockout of all approvals for a while. */
  approveCode(code: string, now = Date.now()): ApproveResult {
    const tx = this.db.transaction((): ApproveResult => {
      const since = now - PAIRING_LOCKOUT_MS;
      this.db.prepare("DELETE FROM gateway_pairing_failures WHERE at < ?").run(since);
      const failures =
        this.db.prepare<{ n: number }>("SELECT COUNT(*) AS n FROM gateway_pairing_failures").get()?.n ?? 0;
      if (failures >= PAIRING_MAX_FAILURES)
        return {
          ok: false,
          reason: `pairing approvals are locked after ${failures} wrong codes within an hour; try again later`,
        };
      const row = this.db
        .prepare<{ platform: string; user_id: string; user_name: string; expires_at: number }>(
          "SELECT platform, user_id, user_name, expires_at FROM gateway_pairing WHERE code = ?",
        )
        .get(code.trim().toUpperCase());
      if (!row || row.expires_at <= now) {
        this.db.prepare("INSERT INTO gateway_pairing_failures (at) VALUES (?)").run(now);
        return { ok: false, reason: row ? `code ${code} has expired` : `no pending pairing code ${code}` };
      }
      this.db.prepare("DELETE FROM gateway_pairing WHERE code = ?").run(code.trim().toUpperCase());
      this.db
        .prepare(
          "INSERT OR REPLACE INTO gateway_approved (platform, user_id, user_name, approved_at) VALUES (?, ?, ?, ?)",
        )
        .run(row.platform, row.user_id, row.user_name, now);
      return {
        ok: true,
        approved: { platform: row.platform, userId: row.user_id, userName: row.user_name, approvedAt: now },
      };
    });
    return tx.immediate();
  }
  isApproved(platform: string, userId: string): boolean {
    return (
      this.db
        .prepare("SELECT 1 FROM gateway_approved WHERE platform = ? AND user_id = ?")
        .get(platform, userId) !== undefined
    );
  }
  approvedUsers(): ApprovedRow[] {
    return this.db
      .prepare<{ platform: string; user_id: string; user_name: string; approved_at: number }>(
        "SELECT * FROM gateway_approved ORDER BY approved_at",
      )
      .all()
      .map((r) => ({
        platform: r.platform,
        userId: r.user_id,
        userName: r.user_name,
        approvedAt: r.approved_at,
      }));
  }
  /** Revokes by user id or user name (on any platform, or the given one). */
  revoke(user: string, platform?: string): number {
    const sql = platform
      ? "DELETE FROM gateway_approved WHERE (user_id = ? OR user_name = ?) AND platform = ?"
      : "DELETE FROM gateway_approved WHERE user_id = ? OR user_name = ?";
    return this.db.prepare(sql).run(...(platform ? [user, user, platform] : [user, user])).changes;
  }
}

function newCode(): string {
  let code = "";
  for (let i = 0; i < PAIRING_CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}
