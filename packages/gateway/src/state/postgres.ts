// The gateway's state on Postgres, shared by every gateway process of the profile on any machine:
// a message is claimed by INSERT … ON CONFLICT DO NOTHING (the process whose insert lands runs
// it, any other sees a duplicate), a reply part is recorded the same way (only the process that
// created the row sends it), and pairing's check-and-set runs in one transaction under a lock on
// the platform's codes (issue) or on the failure count (approve). Claimed rows name their process
// (`owner`, whose advisory lock it holds while it lives): what a crash left unsettled is taken up
// only by a process that finds its owner dead (the owner's lock free) and adopts its rows, so a
// process starting beside live ones never settles their messages or resends their replies.
import type { LockSession, PostgresQuery, PostgresTables } from "@iris/host";
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

/** Serialises a check-and-set across processes: a transaction-scoped advisory lock on `what`. */
export const lockFor = (tx: PostgresQuery, what: string) =>
  tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`iris-gateway:${what}`]);

/** The advisory lock a gateway process holds while it lives, named by its owner id. */
export const processLockName = (owner: string) => `gateway-process:${owner}`;

export class PostgresGatewayState implements GatewayState {
  /** `owner`: this process's id, whose lock (processLockName) `locks` holds. */
  constructor(
    private readonly t: PostgresTables,
    private readonly owner: string,
    private readonly locks: LockSession,
  ) {}

  /** Moves the unsettled rows of `table` whose owner is dead (its lock free) to this process. */
  private async adoptOrphans(table: "gateway_inbound" | "gateway_outbox", open: string, platform: string) {
    const { rows } = await this.t.query<{ owner: string }>(
      `SELECT DISTINCT owner FROM ${table} WHERE ${open} AND platform = $1 AND owner <> $2`,
      [platform, this.owner],
    );
    for (const { owner } of rows) {
      const name = processLockName(owner);
      if (!(await this.locks.tryLock(name))) continue; // alive: its rows are its own
      try {
        await this.t.query(`UPDATE ${table} SET owner = $1 WHERE ${open} AND platform = $2 AND owner = $3`, [
          this.owner,
          platform,
          owner,
        ]);
      } finally {
        await this.locks.unlock(name);
      }
    }
  }

  async chatSession(chatKey: string): Promise<string | undefined> {
    const { rows } = await this.t.query<{ session_id: string }>(
      "SELECT session_id FROM gateway_chats WHERE chat_key = $1",
      [chatKey],
    );
    return rows[0]?.session_id;
  }
  async setChatSession(chatKey: string, sessionId: string, now = Date.now()): Promise<void> {
    await this.t.query(
      "INSERT INTO gateway_chats (chat_key, session_id, updated_at) VALUES ($1, $2, $3) " +
        "ON CONFLICT (chat_key) DO UPDATE SET session_id = excluded.session_id, updated_at = excluded.updated_at",
      [chatKey, sessionId, now],
    );
  }
  async chatKeys(prefix: string): Promise<string[]> {
    const { rows } = await this.t.query<{ chat_key: string }>(
      "SELECT chat_key FROM gateway_chats WHERE left(chat_key, length($1)) = $1 ORDER BY updated_at DESC",
      [prefix],
    );
    return rows.map((r) => r.chat_key);
  }
  async repointChats(from: string, to: string, now = Date.now()): Promise<number> {
    const r = await this.t.query(
      "UPDATE gateway_chats SET session_id = $1, updated_at = $2 WHERE session_id = $3",
      [to, now, from],
    );
    return r.rowCount;
  }

  async claimInbound(m: InboundClaim, now = Date.now()): Promise<boolean> {
    const r = await this.t.query(
      "INSERT INTO gateway_inbound (platform, message_id, chat_key, chat_id, thread_id, state, received_at, owner) " +
        "VALUES ($1, $2, $3, $4, $5, 'received', $6, $7) ON CONFLICT DO NOTHING",
      [m.platform, m.messageId, m.chatKey, m.chatId, m.threadId ?? null, now, this.owner],
    );
    return r.rowCount === 1;
  }
  async finishInbound(
    platform: string,
    messageId: string,
    state: "done" | "reported" = "done",
  ): Promise<void> {
    await this.t.query("UPDATE gateway_inbound SET state = $1 WHERE platform = $2 AND message_id = $3", [
      state,
      platform,
      messageId,
    ]);
  }
  /** This process's unanswered messages, and those of dead processes (adopted). */
  async unansweredInbound(platform: string): Promise<InboundRow[]> {
    await this.adoptOrphans("gateway_inbound", "state = 'received'", platform);
    const { rows } = await this.t.query<InboundDbRow>(
      `SELECT ${INBOUND_COLUMNS} FROM gateway_inbound WHERE state = 'received' AND platform = $1 AND owner = $2 ORDER BY received_at, message_id`,
      [platform, this.owner],
    );
    return rows.map(inboundOf);
  }
  async pruneInbound(before: number): Promise<number> {
    const r = await this.t.query(
      "DELETE FROM gateway_inbound WHERE state <> 'received' AND received_at < $1",
      [before],
    );
    return r.rowCount;
  }

  async recordOutbound(
    row: Omit<OutboxRow, "state" | "handedAt">,
    now = Date.now(),
  ): Promise<OutboxRow & { fresh: boolean }> {
    const inserted = await this.t.query(
      "INSERT INTO gateway_outbox (logical_key, platform, chat_id, thread_id, state, created_at, text, owner) " +
        "VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7) ON CONFLICT DO NOTHING",
      [row.logicalKey, row.platform, row.chatId, row.threadId, now, row.text, this.owner],
    );
    if (inserted.rowCount === 1) return { ...row, state: "pending", handedAt: null, fresh: true };
    const found = await this.outbound(row.logicalKey);
    if (!found) throw new Error(`outbox row ${row.logicalKey} vanished while it was recorded`);
    return { ...found, fresh: false };
  }
  async outbound(logicalKey: string): Promise<OutboxRow | undefined> {
    const { rows } = await this.t.query<OutboxDbRow>(
      `SELECT ${OUTBOX_COLUMNS} FROM gateway_outbox WHERE logical_key = $1`,
      [logicalKey],
    );
    return rows[0] ? outboxOf(rows[0]) : undefined;
  }
  async markOutbound(logicalKey: string, state: "sent" | "uncertain", now = Date.now()): Promise<void> {
    await this.t.query("UPDATE gateway_outbox SET state = $1, sent_at = $2 WHERE logical_key = $3", [
      state,
      now,
      logicalKey,
    ]);
  }
  async markOutboundHanded(logicalKey: string, now = Date.now()): Promise<void> {
    await this.t.query(
      "UPDATE gateway_outbox SET sent_at = $1 WHERE logical_key = $2 AND state = 'pending'",
      [now, logicalKey],
    );
  }
  /** This process's pending parts, and those of dead processes (adopted). */
  async pendingOutbound(platform: string): Promise<OutboxRow[]> {
    await this.adoptOrphans("gateway_outbox", "state = 'pending'", platform);
    const { rows } = await this.t.query<OutboxDbRow>(
      `SELECT ${OUTBOX_COLUMNS} FROM gateway_outbox WHERE state = 'pending' AND platform = $1 AND owner = $2 ORDER BY created_at, logical_key`,
      [platform, this.owner],
    );
    return rows.map(outboxOf);
  }
  async pruneOutbound(before: number): Promise<number> {
    const r = await this.t.query("DELETE FROM gateway_outbox WHERE state <> 'pending' AND created_at < $1", [
      before,
    ]);
    return r.rowCount;
  }

  issueCode(platform: string, userId: string, userName: string, opts: IssueOptions): Promise<IssueResult> {
    const now = opts.now ?? Date.now();
    return this.t.transaction(async (tx): Promise<IssueResult> => {
      await lockFor(tx, `pairing:${platform}`);
      await tx.query("DELETE FROM gateway_pairing WHERE expires_at <= $1", [now]);
      const mine = await tx.query<{ code: string; expires_at: number }>(
        "SELECT code, expires_at FROM gateway_pairing WHERE platform = $1 AND user_id = $2",
        [platform, userId],
      );
      const found = mine.rows[0];
      if (found) return { ok: true, code: found.code, fresh: false, expiresAt: found.expires_at };
      const counted = await tx.query<{ n: number }>(
        "SELECT COUNT(*)::int AS n FROM gateway_pairing WHERE platform = $1",
        [platform],
      );
      const pending = counted.rows[0]?.n ?? 0;
      if (pending >= opts.maxPending) return { ok: false, reason: tooManyReason(pending) };
      const code = newPairingCode();
      const expiresAt = now + opts.ttlMs;
      await tx.query(`INSERT INTO gateway_pairing (${PAIRING_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, [
        code,
        platform,
        userId,
        userName,
        now,
        expiresAt,
      ]);
      return { ok: true, code, fresh: true, expiresAt };
    });
  }
  async pendingCodes(now = Date.now()): Promise<PairingRow[]> {
    const { rows } = await this.t.query<PairingDbRow>(
      `SELECT ${PAIRING_COLUMNS} FROM gateway_pairing WHERE expires_at > $1 ORDER BY created_at`,
      [now],
    );
    return rows.map(pairingOf);
  }
  approveCode(code: string, now = Date.now()): Promise<ApproveResult> {
    return this.t.transaction(async (tx): Promise<ApproveResult> => {
      await lockFor(tx, "pairing-approvals");
      await tx.query("DELETE FROM gateway_pairing_failures WHERE at < $1", [now - PAIRING_LOCKOUT_MS]);
      const counted = await tx.query<{ n: number }>(
        "SELECT COUNT(*)::int AS n FROM gateway_pairing_failures",
      );
      const failures = counted.rows[0]?.n ?? 0;
      if (failures >= PAIRING_MAX_FAILURES) return { ok: false, reason: lockedReason(failures) };
      const found = await tx.query<PairingDbRow>(
        `DELETE FROM gateway_pairing WHERE code = $1 AND expires_at > $2 RETURNING ${PAIRING_COLUMNS}`,
        [normalCode(code), now],
      );
      const row = found.rows[0];
      if (!row) {
        const expired = await tx.query("SELECT 1 FROM gateway_pairing WHERE code = $1", [normalCode(code)]);
        await tx.query("INSERT INTO gateway_pairing_failures (at) VALUES ($1)", [now]);
        return {
          ok: false,
          reason: expired.rowCount > 0 ? `code ${code} has expired` : `no pending pairing code ${code}`,
        };
      }
      await tx.query(
        `INSERT INTO gateway_approved (${APPROVED_COLUMNS}) VALUES ($1, $2, $3, $4) ` +
          "ON CONFLICT (platform, user_id) DO UPDATE SET user_name = excluded.user_name, approved_at = excluded.approved_at",
        [row.platform, row.user_id, row.user_name, now],
      );
      return {
        ok: true,
        approved: { platform: row.platform, userId: row.user_id, userName: row.user_name, approvedAt: now },
      };
    });
  }
  async isApproved(platform: string, userId: string): Promise<boolean> {
    const r = await this.t.query("SELECT 1 FROM gateway_approved WHERE platform = $1 AND user_id = $2", [
      platform,
      userId,
    ]);
    return r.rows.length > 0;
  }
  async approvedUsers(): Promise<ApprovedRow[]> {
    const { rows } = await this.t.query<ApprovedDbRow>(
      `SELECT ${APPROVED_COLUMNS} FROM gateway_approved ORDER BY approved_at`,
    );
    return rows.map(approvedOf);
  }
  async revoke(user: string, platform?: string): Promise<number> {
    const r = platform
      ? await this.t.query(
          "DELETE FROM gateway_approved WHERE (user_id = $1 OR user_name = $1) AND platform = $2",
          [user, platform],
        )
      : await this.t.query("DELETE FROM gateway_approved WHERE user_id = $1 OR user_name = $1", [user]);
    return r.rowCount;
  }
}
