// Reads for the dashboard (SPEC E1 front ends) that stay fast on a profile with 100,000 sessions
// and millions of nodes: every list is a keyset page over an index, every total a range scan of
// usage_by_time (migration 0031); nothing loads a whole table.
import { type BranchTip, BranchTips } from "./branch-tips.js";
import type { Database } from "./driver.js";
import { NODE_COLUMNS, type NodeDbRow, type NodeRow, toNodeRow } from "./rows.js";
import { type CachedDatabase, withStatementCache } from "./statement-cache.js";

/** What a usage row is grouped by besides its day (by cron job: the dashboard regroups the
 * by-session rows through the gateway's cron tables). */
export type UsageSplit = "model" | "provider" | "platform" | "session";

export interface UsageDayRow {
  /** YYYY-MM-DD in UTC. */
  day: string;
  key: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
}

export interface UsageTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
}

export interface SessionListRow {
  id: string;
  rowid: number;
  title: string | null;
  source: string;
  model: string | null;
  provider: string | null;
  costUsd: number;
  startedAt: number;
  endedAt: number | null;
  /** The newest node's time, or the start when it has none. */
  lastActivity: number;
  parentSessionId: string | null;
}

export interface SessionCursor {
  startedAt: number;
  rowid: number;
}

const DAY_MS = 86_400_000;

const DAILY_KEY: Record<"model" | "provider" | "platform", string> = {
  model: "provider || '/' || model",
  provider: "provider",
  platform: "source",
};

type DayNoRow = Omit<UsageDayRow, "day"> & { dayNo: number };

const DAILY_SUMS =
  "COALESCE(SUM(calls), 0) AS calls, COALESCE(SUM(input_tokens), 0) AS inputTokens, COALESCE(SUM(output_tokens), 0) AS outputTokens, " +
  "COALESCE(SUM(cache_read_tokens), 0) AS cacheReadTokens, COALESCE(SUM(cache_write_tokens), 0) AS cacheWriteTokens, " +
  "COALESCE(SUM(cost_usd), 0) AS costUsd";

const SUMS =
  "COUNT(*) AS calls, COALESCE(SUM(u.input_tokens), 0) AS inputTokens, COALESCE(SUM(u.output_tokens), 0) AS outputTokens, " +
  "COALESCE(SUM(u.cache_read_tokens), 0) AS cacheReadTokens, COALESCE(SUM(u.cache_write_tokens), 0) AS cacheWriteTokens, " +
  "COALESCE(SUM(u.cost_usd), 0) AS costUsd";

export class DashboardReads {
  private readonly stmts: CachedDatabase;

  private readonly tips: BranchTips;

  constructor(private readonly db: Database) {
    this.stmts = withStatementCache(db);
    this.tips = new BranchTips(db);
  }

  /**
   * Usage per UTC day and split key for calls made on the UTC days [fromDay, toDay] (day numbers
   * since 1970-01-01): by model, provider or platform from usage_daily; by session from one range
   * scan of usage_by_time (as many keys as sessions).
   */
  usageByDay(fromDay: number, toDay: number, split: UsageSplit): UsageDayRow[] {
    const rows =
      split === "session"
        ? this.stmts
            .prepare<DayNoRow>(
              `SELECT u.created_at / ${DAY_MS} AS dayNo, u.session_id AS key, ${SUMS} FROM usage u ` +
                "WHERE u.created_at >= ? AND u.created_at < ? GROUP BY dayNo, key ORDER BY dayNo, key",
            )
            .all(fromDay * DAY_MS, (toDay + 1) * DAY_MS)
        : this.stmts
            .prepare<DayNoRow>(
              `SELECT day AS dayNo, ${DAILY_KEY[split]} AS key, ${DAILY_SUMS} FROM usage_daily ` +
                "WHERE day >= ? AND day <= ? GROUP BY dayNo, key ORDER BY dayNo, key",
            )
            .all(fromDay, toDay);
    return rows.map(({ dayNo, ...r }) => ({
      day: new Date(dayNo * DAY_MS).toISOString().slice(0, 10),
      ...r,
    }));
  }

  /** Usage on the UTC days [fromDay, toDay] (usage_daily). */
  usageOnDays(fromDay: number, toDay: number): UsageTotals {
    return this.stmts
      .prepare<UsageTotals>(`SELECT ${DAILY_SUMS} FROM usage_daily WHERE day >= ? AND day <= ?`)
      .get(fromDay, toDay) as UsageTotals;
  }

  sessionCount(): number {
    return (this.stmts.prepare<{ n: number }>("SELECT COUNT(*) AS n FROM sessions").get() as { n: number }).n;
  }

  /** One page of sessions, newest first, after `cursor` (sessions_by_start). */
  sessionsPage(limit: number, cursor?: SessionCursor): SessionListRow[] {
    const where = cursor ? "WHERE (s.started_at < ? OR (s.started_at = ? AND s.rowid < ?))" : "";
    const args = cursor ? [cursor.startedAt, cursor.startedAt, cursor.rowid] : [];
    return this.stmts
      .prepare<SessionListRow>(
        "SELECT s.id, s.rowid AS rowid, s.title, s.source, s.model, s.provider, s.cost_usd AS costUsd, " +
          "s.started_at AS startedAt, s.ended_at AS endedAt, s.parent_session_id AS parentSessionId, " +
          "COALESCE((SELECT n.created_at FROM nodes n WHERE n.session_id = s.id ORDER BY n.seq DESC LIMIT 1), " +
          `s.started_at) AS lastActivity FROM sessions s ${where} ORDER BY s.started_at DESC, s.rowid DESC LIMIT ?`,
      )
      .all(...args, limit);
  }

  /** Sessions by id (search hits name sessions; the page shows their rows). */
  sessionsById(ids: readonly string[]): SessionListRow[] {
    const out: SessionListRow[] = [];
    const stmt = this.stmts.prepare<SessionListRow>(
      "SELECT s.id, s.rowid AS rowid, s.title, s.source, s.model, s.provider, s.cost_usd AS costUsd, " +
        "s.started_at AS startedAt, s.ended_at AS endedAt, s.parent_session_id AS parentSessionId, " +
        "COALESCE((SELECT n.created_at FROM nodes n WHERE n.session_id = s.id ORDER BY n.seq DESC LIMIT 1), " +
        "s.started_at) AS lastActivity FROM sessions s WHERE s.id = ?",
    );
    for (const id of ids) {
      const row = stmt.get(id);
      if (row) out.push(row);
    }
    return out;
  }

  /** Sessions split from or delegated by `sessionId` (sessions_by_parent). */
  childSessions(sessionId: string, limit = 100): { id: string; title: string | null; source: string }[] {
    return this.stmts
      .prepare<{ id: string; title: string | null; source: string }>(
        "SELECT id, title, source FROM sessions WHERE parent_session_id = ? ORDER BY started_at LIMIT ?",
      )
      .all(sessionId, limit);
  }

  /** A session's nodes in the order they were stored, after `afterSeq` (nodes_by_session). */
  nodesPage(sessionId: string, afterSeq: number, limit: number): NodeRow[] {
    return this.stmts
      .prepare<NodeDbRow>(
        `SELECT ${NODE_COLUMNS} FROM nodes WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
      )
      .all(sessionId, afterSeq, limit)
      .map(toNodeRow);
  }

  /** Ids of the session's nodes with more than one child: where its branches fork (branch-tips.ts). */
  forkPoints(sessionId: string): Set<string> {
    return this.tips.forks(sessionId);
  }

  /** The tips of the session's branches, oldest first (branch-tips.ts: scanned once, then kept). */
  branchTips(sessionId: string): BranchTip[] {
    return this.tips.list(sessionId);
  }

  /** Ids starting with `prefix` (at most `limit`), by the primary key's range. */
  sessionIdsWithPrefix(prefix: string, limit = 2): string[] {
    return this.stmts
      .prepare<{ id: string }>("SELECT id FROM sessions WHERE id >= ? AND id < ? ORDER BY id LIMIT ?")
      .all(prefix, `${prefix}\uffff`, limit)
      .map((r) => r.id);
  }

  /** Live session leases: one per running turn (SPEC D1). */
  runningTurns(now: number, limit = 100): { sessionId: string; pid: number; acquiredAt: number }[] {
    return this.stmts
      .prepare<{ sessionId: string; pid: number; acquiredAt: number }>(
        "SELECT session_id AS sessionId, pid, acquired_at AS acquiredAt FROM session_leases WHERE expires_at > ? LIMIT ?",
      )
      .all(now, limit);
  }

  /** Whether the store is the read-only kind (a read-only home). */
  get readonly(): boolean {
    return this.db.readonly;
  }
}
