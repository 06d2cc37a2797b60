// The gateway's state on SQLite: the profile's state.db through the store's synchronous port,
// each check-and-set one statement or one transaction under the file's write lock.
import type { SqliteTables } from "@iris/host";
import {
  APPROVED_COLUMNS,
  type ApprovedDbRow,
  approvedOf,
  INBOUND_COLUMNS,
  type InboundDbRow,
  inboundOf,
  OUTBOX_COLUMNS,
  type OutboxDbRow,
  outboxOf,
  PAIRING_COLUMNS,
  type PairingDbRow,
  pairingOf,
} from "./rows.js";
import {
  type ApprovedRow,
  type ApproveResult,
  type GatewayState,
  type InboundClaim,
  type InboundRow,
  type IssueOptions,
  type IssueResult,
  lockedReason,
  newPairingCode,
  normalCode,
  type OutboxRow,
  PAIRING_LOCKOUT_MS,
  PAIRING_MAX_FAILURES,
  type PairingRow,
  tooManyReason,
} from "./state.js";

export class SqliteGatewayState implements GatewayState {
  constructor(private readonly t: SqliteTables) {}

  async chatSession(chatKey: string): Promise<string | undefined> {
    return this.t.get<{ session_id: string }>(
      "SELECT session_id FROM gateway_chats WHERE chat_key = ?",
      chatKey,
    )?.session_id;
  }
  async setChatSession(chatKey: string, sessionId: string, now = Date.now()): Promise<void> {
    this.t.run(
      "INSERT INTO gateway_chats (chat_key, session_id, updated_at) VALUES (?, ?, ?) " +
        "ON CONFLICT(chat_key) DO UPDATE SET session_id = excluded.session_id, updated_at = excluded.updated_at",
      chatKey,
      sessionId,
      now,
    );
  }
  async chatKeys(prefix: string): Promise<string[]> {
    return this.t
      .all<{ chat_key: string }>(
        "SELECT chat_key FROM gateway_chats WHERE substr(chat_key, 1, length(?)) = ? ORDER BY updated_at DESC",
        prefix,
        prefix,
      )
      .map((r) => r.chat_key);
  }
  async repointChats(from: string, to: string, now = Date.now()): Promise<number> {
    return this.t.run(
      "UPDATE gateway_chats SET session_id = ?, updated_at = ? WHERE session_id = ?",
      to,
      now,
      from,
    ).changes;
  }

  async claimInbound(m: InboundClaim, now = Date.now()): Promise<boolean> {
    return (
      this.t.run(
        "INSERT OR IGNORE INTO gateway_inbound (platform, message_id, chat_key, chat_id, thread_id, state, received_at) VALUES (?, ?, ?, ?, ?, 'received', ?)",
        m.platform,
        m.messageId,
        m.chatKey,
        m.chatId,
        m.threadId ?? null,
        now,
      ).changes === 1
    );
  }
  async finishInbound(
    platform: string,
    messageId: string,
    state: "done" | "reported" = "done",
  ): Promise<void> {
    this.t.run(
      "UPDATE gateway_inbound SET state = ? WHERE platform = ? AND message_id = ?",
      state,
      platform,
      messageId,
    );
  }
  async unansweredInbound(platform: string): Promise<InboundRow[]> {
    return this.t
      .all<InboundDbRow>(
        `SELECT ${INBOUND_COLUMNS} FROM gateway_inbound WHERE state = 'received' AND platform = ? ORDER BY received_at`,
        platform,
      )
      .map(inboundOf);
  }
  async pruneInbound(before: number): Promise<number> {
    return this.t.run("DELETE FROM gateway_inbound WHERE state <> 'received' AND received_at < ?", before)
      .changes;
  }

  async recordOutbound(
    row: Omit<OutboxRow, "state" | "handedAt">,
    now = Date.now(),
  ): Promise<OutboxRow & { fresh: boolean }> {
    const inserted = this.t.run(
      "INSERT OR IGNORE INTO gateway_outbox (logical_key, platform, chat_id, thread_id, state, created_at, text) VALUES (?, ?, ?, ?, 'pending', ?, ?)",
      row.logicalKey,
      row.platform,
      row.chatId,
      row.threadId,
      now,
      row.text,
    ).changes;
    if (inserted === 1) return { ...row, state: "pending", handedAt: null, fresh: true };
    const found = this.outboundRow(row.logicalKey);
    if (!found) throw new Error(`outbox row ${row.logicalKey} vanished while it was recorded`);
    return { ...found, fresh: false };
  }
  private outboundRow(logicalKey: string): OutboxRow | undefined {
    const r = this.t.get<OutboxDbRow>(
      `SELECT ${OUTBOX_COLUMNS} FROM gateway_outbox WHERE logical_key = ?`,
      logicalKey,
    );
    return r ? outboxOf(r) : undefined;
  }
  async outbound(logicalKey: string): Promise<OutboxRow | undefined> {
    return this.outboundRow(logicalKey);
  }
  async markOutbound(logicalKey: string, state: "sent" | "uncertain", now = Date.now()): Promise<void> {
    this.t.run(
      "UPDATE gateway_outbox SET state = ?, sent_at = ? WHERE logical_key = ?",
      state,
      now,
      logicalKey,
    );
  }
  async markOutboundHanded(logicalKey: string, now = Date.now()): Promise<void> {
    // sent_at of a pending row is when it was handed over; of a settled row, when it settled.
    this.t.run(
      "UPDATE gateway_outbox SET sent_at = ? WHERE logical_key = ? AND state = 'pending'",
      now,
      logicalKey,
    );
  }
  async pendingOutbound(platform: string): Promise<OutboxRow[]> {
    return this.t
      .all<OutboxDbRow>(
        `SELECT ${OUTBOX_COLUMNS} FROM gateway_outbox WHERE state = 'pending' AND platform = ? ORDER BY created_at, logical_key`,
        platform,
      )
      .map(outboxOf);
  }
  async pruneOutbound(before: number): Promise<number> {
    return this.t.run("DELETE FROM gateway_outbox WHERE state <> 'pending' AND created_at < ?", before)
      .changes;
  }

  async issueCode(
    platform: string,
    userId: string,
    userName: string,
    opts: IssueOptions,
  ): Promise<IssueResult> {
    const now = opts.now ?? Date.now();
    return this.t.transaction((): IssueResult => {
      this.t.run("DELETE FROM gateway_pairing WHERE expires_at <= ?", now);
      const mine = this.t.get<{ code: string; expires_at: number }>(
        "SELECT code, expires_at FROM gateway_pairing WHERE platform = ? AND user_id = ?",
        platform,
        userId,
      );
      if (mine) return { ok: true, code: mine.code, fresh: false, expiresAt: mine.expires_at };
      const pending =
        this.t.get<{ n: number }>("SELECT COUNT(*) AS n FROM gateway_pairing WHERE platform = ?", platform)
          ?.n ?? 0;
      if (pending >= opts.maxPending) return { ok: false, reason: tooManyReason(pending) };
      const code = newPairingCode();
      const expiresAt = now + opts.ttlMs;
      this.t.run(
        `INSERT INTO gateway_pairing (${PAIRING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`,
        code,
        platform,
        userId,
        userName,
        now,
        expiresAt,
      );
      return { ok: true, code, fresh: true, expiresAt };
    });
  }
  async pendingCodes(now = Date.now()): Promise<PairingRow[]> {
    return this.t
      .all<PairingDbRow>(
        `SELECT ${PAIRING_COLUMNS} FROM gateway_pairing WHERE expires_at > ? ORDER BY created_at`,
        now,
      )
      .map(pairingOf);
  }
  async approveCode(code: string, now = Date.now()): Promise<ApproveResult> {
    return this.t.transaction((): ApproveResult => {
      this.t.run("DELETE FROM gateway_pairing_failures WHERE at < ?", now - PAIRING_LOCKOUT_MS);
      const failures =
        this.t.get<{ n: number }>("SELECT COUNT(*) AS n FROM gateway_pairing_failures")?.n ?? 0;
      if (failures >= PAIRING_MAX_FAILURES) return { ok: false, reason: lockedReason(failures) };
      const row = this.t.get<PairingDbRow>(
        `SELECT ${PAIRING_COLUMNS} FROM gateway_pairing WHERE code = ?`,
        normalCode(code),
      );
      if (!row || row.expires_at <= now) {
        this.t.run("INSERT INTO gateway_pairing_failures (at) VALUES (?)", now);
        return { ok: false, reason: row ? `code ${code} has expired` : `no pending pairing code ${code}` };
      }
      this.t.run("DELETE FROM gateway_pairing WHERE code = ?", row.code);
      this.t.run(
        `INSERT OR REPLACE INTO gateway_approved (${APPROVED_COLUMNS}) VALUES (?, ?, ?, ?)`,
        row.platform,
        row.user_id,
        row.user_name,
        now,
      );
      return {
        ok: true,
        approved: { platform: row.platform, userId: row.user_id, userName: row.user_name, approvedAt: now },
      };
    });
  }
  async isApproved(platform: string, userId: string): Promise<boolean> {
    return (
      this.t.get("SELECT 1 FROM gateway_approved WHERE platform = ? AND user_id = ?", platform, userId) !==
      undefined
    );
  }
  async approvedUsers(): Promise<ApprovedRow[]> {
    return this.t
      .all<ApprovedDbRow>(`SELECT ${APPROVED_COLUMNS} FROM gateway_approved ORDER BY approved_at`)
      .map(approvedOf);
  }
  async revoke(user: string, platform?: string): Promise<number> {
    return platform
      ? this.t.run(
          "DELETE FROM gateway_approved WHERE (user_id = ? OR user_name = ?) AND platform = ?",
          user,
          user,
          platform,
        ).changes
      : this.t.run("DELETE FROM gateway_approved WHERE user_id = ? OR user_name = ?", user, user).changes;
  }
}
