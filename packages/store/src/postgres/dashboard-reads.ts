// The dashboard's reads on Postgres (the SQLite engine's dashboard-reads.ts): keyset pages over
// indexes, totals from usage_daily (kept by usage.ts) or one range scan of usage_by_time.
import type { BranchTip } from "../branch-tips.js";
import type {
  SessionCursor,
  SessionListRow,
  UsageDayRow,
  UsageSplit,
  UsageTotals,
} from "../dashboard-reads.js";
import { type NodeDbRow, toNodeRow } from "../rows.js";
import type { DashboardReads } from "../state.js";
import { NODE_COLUMNS } from "./nodes.js";
import type { Pool } from "./pool.js";
import { sessionsWithPrefix } from "./sessions.js";

const DAY_MS = 86_400_000;

const DAILY_KEY: Record<"model" | "provider" | "platform", string> = {
  model: "provider || '/' || model",
  provider: "provider",
  platform: "source",
};

// Sums come back as numeric (SUM of bigint): cast to what the rows say they are.
const DAILY_SUMS =
  'COALESCE(SUM(calls), 0)::bigint AS calls, COALESCE(SUM(input_tokens), 0)::bigint AS "inputTokens", ' +
  'COALESCE(SUM(output_tokens), 0)::bigint AS "outputTokens", COALESCE(SUM(cache_read_tokens), 0)::bigint AS "cacheReadTokens", ' +
  'COALESCE(SUM(cache_write_tokens), 0)::bigint AS "cacheWriteTokens", COALESCE(SUM(cost_usd), 0)::float8 AS "costUsd"';

const SUMS =
  'COUNT(*)::bigint AS calls, COALESCE(SUM(u.input_tokens), 0)::bigint AS "inputTokens", ' +
  'COALESCE(SUM(u.output_tokens), 0)::bigint AS "outputTokens", COALESCE(SUM(u.cache_read_tokens), 0)::bigint AS "cacheReadTokens", ' +
  'COALESCE(SUM(u.cache_write_tokens), 0)::bigint AS "cacheWriteTokens", COALESCE(SUM(u.cost_usd), 0)::float8 AS "costUsd"';

const SESSION_LIST =
  's.id, s.seq AS rowid, s.title, s.source, s.model, s.provider, s.cost_usd AS "costUsd", ' +
  's.started_at AS "startedAt", s.ended_at AS "endedAt", s.parent_session_id AS "parentSessionId", ' +
  "COALESCE((SELECT n.created_at FROM nodes n WHERE n.session_id = s.id ORDER BY n.seq DESC LIMIT 1), " +
  's.started_at) AS "lastActivity" FROM sessions s';

type DayNoRow = Omit<UsageDayRow, "day"> & { dayNo: number };

export function pgDashboardReads(pool: Pool): DashboardReads {
  return {
    async usageByDay(fromDay: number, toDay: number, split: UsageSplit) {
      const { rows } =
        split === "session"
          ? await pool.query<DayNoRow>(
              `SELECT (u.created_at / ${DAY_MS})::int AS "dayNo", u.session_id AS key, ${SUMS} FROM usage u ` +
                'WHERE u.created_at >= $1 AND u.created_at < $2 GROUP BY 1, 2 ORDER BY 1, u.session_id COLLATE "C"',
              [fromDay * DAY_MS, (toDay + 1) * DAY_MS],
            )
          : await pool.query<DayNoRow>(
              `SELECT day AS "dayNo", ${DAILY_KEY[split]} AS key, ${DAILY_SUMS} FROM usage_daily ` +
                `WHERE day >= $1 AND day <= $2 GROUP BY 1, 2 ORDER BY 1, (${DAILY_KEY[split]}) COLLATE "C"`,
              [fromDay, toDay],
            );
      return rows.map(({ dayNo, ...r }) => ({
        day: new Date(dayNo * DAY_MS).toISOString().slice(0, 10),
        ...r,
      }));
    },

    async usageOnDays(fromDay, toDay) {
      const { rows } = await pool.query<UsageTotals>(
        `SELECT ${DAILY_SUMS} FROM usage_daily WHERE day >= $1 AND day <= $2`,
        [fromDay, toDay],
      );
      return rows[0] as UsageTotals;
    },

    async sessionCount() {
      const { rows } = await pool.query<{ n: number }>("SELECT COUNT(*)::bigint AS n FROM sessions");
      return rows[0]?.n ?? 0;
    },

    async sessionsPage(limit, cursor?: SessionCursor) {
      const { rows } = cursor
        ? await pool.query<SessionListRow>(
            `SELECT ${SESSION_LIST} WHERE (s.started_at, s.seq) < ($1, $2) ORDER BY s.started_at DESC, s.seq DESC LIMIT $3`,
            [cursor.startedAt, cursor.rowid, limit],
          )
        : await pool.query<SessionListRow>(
            `SELECT ${SESSION_LIST} ORDER BY s.started_at DESC, s.seq DESC LIMIT $1`,
            [limit],
          );
      return rows;
    },

    async sessionsById(ids) {
      if (!ids.length) return [];
      const { rows } = await pool.query<SessionListRow>(`SELECT ${SESSION_LIST} WHERE s.id = ANY($1)`, [
        [...ids],
      ]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    async childSessions(sessionId, limit = 100) {
      const { rows } = await pool.query<{ id: string; title: string | null; source: string }>(
        "SELECT id, title, source FROM sessions WHERE parent_session_id = $1 ORDER BY started_at, seq LIMIT $2",
        [sessionId, limit],
      );
      return rows;
    },

    async nodesPage(sessionId, afterSeq, limit) {
      const { rows } = await pool.query<NodeDbRow>(
        `SELECT ${NODE_COLUMNS} FROM nodes WHERE session_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [sessionId, afterSeq, limit],
      );
      return rows.map(toNodeRow);
    },

    async forkPoints(sessionId) {
      const { rows } = await pool.query<{ parent_id: string }>(
        "SELECT parent_id FROM nodes WHERE session_id = $1 AND parent_id IS NOT NULL " +
          "GROUP BY parent_id HAVING COUNT(*) > 1",
        [sessionId],
      );
      return new Set(rows.map((r) => r.parent_id));
    },

    async branchTips(sessionId) {
      // nodes_by_parent answers "has it a child in this session?" per node.
      const { rows } = await pool.query<BranchTip>(
        'SELECT n.id, n.created_at AS "createdAt" FROM nodes n WHERE n.session_id = $1 AND NOT EXISTS ' +
          "(SELECT 1 FROM nodes c WHERE c.parent_id = n.id AND c.session_id = n.session_id) ORDER BY n.seq",
        [sessionId],
      );
      return rows;
    },

    async sessionIdsWithPrefix(prefix, limit = 2) {
      return (await sessionsWithPrefix(pool, prefix, limit)).map((s) => s.id);
    },

    async runningTurns(now, limit = 100) {
      const { rows } = await pool.query<{ sessionId: string; pid: number; acquiredAt: number }>(
        'SELECT session_id AS "sessionId", pid, acquired_at AS "acquiredAt" FROM session_leases ' +
          "WHERE expires_at > $1 LIMIT $2",
        [now, limit],
      );
      return rows;
    },
  };
}
