// The ask board and the platforms' health on Postgres (the SQLite engine's dashboard-asks.ts and
// platform-health.ts). The engine is shared by processes on several machines: each row naming a
// process names its host too, and only this machine's processes are judged alive or gone here.
import { hostname } from "node:os";
import type { AskRow } from "../dashboard-asks.js";
import type { PlatformHealthRow } from "../platform-health.js";
import type { AskBoard, PlatformHealth } from "../state.js";
import type { Pool } from "./pool.js";

const ASK_COLUMNS =
  'id, session_id AS "sessionId", kind, source, pid, host, state, created_at AS "createdAt", ' +
  'answered_at AS "answeredAt", answer, answered_by AS "answeredBy", question';

const toAsk = (r: Omit<AskRow, "question"> & { question: string }): AskRow => ({
  ...r,
  question: JSON.parse(r.question) as unknown,
});

export function pgAskBoard(pool: Pool): AskBoard {
  const host = hostname();
  const settle = async (sql: string, args: unknown[]) => ((await pool.query(sql, args)).rowCount ?? 0) === 1;
  const board: AskBoard = {
    async publish(ask) {
      await pool.query(
        "INSERT INTO dashboard_asks (id, session_id, kind, source, pid, host, state, created_at, question) " +
          "VALUES ($1, $2, $3, $4, $5, $6, 'waiting', $7, $8)",
        [
          ask.id,
          ask.sessionId,
          ask.kind,
          ask.source,
          process.pid,
          host,
          Date.now(),
          JSON.stringify(ask.question),
        ],
      );
    },
    answer: (id, answer, by) =>
      settle(
        "UPDATE dashboard_asks SET state = 'answered', answer = $1, answered_by = $2, answered_at = $3 " +
          "WHERE id = $4 AND state = 'waiting'",
        [answer, by, Date.now(), id],
      ),
    withdraw: (id) =>
      settle(
        "UPDATE dashboard_asks SET state = 'withdrawn', answered_at = $1 WHERE id = $2 AND state = 'waiting'",
        [Date.now(), id],
      ),
    async get(id) {
      const { rows } = await pool.query(`SELECT ${ASK_COLUMNS} FROM dashboard_asks WHERE id = $1`, [id]);
      return rows[0] ? toAsk(rows[0]) : undefined;
    },
    async waiting(limit = 100) {
      const { rows } = await pool.query(
        `SELECT ${ASK_COLUMNS} FROM dashboard_asks WHERE state = 'waiting' ORDER BY created_at LIMIT $1`,
        [limit],
      );
      return rows.map(toAsk);
    },
    async forSession(sessionId, limit = 200) {
      const { rows } = await pool.query(
        `SELECT ${ASK_COLUMNS} FROM dashboard_asks WHERE session_id = $1 ORDER BY created_at LIMIT $2`,
        [sessionId, limit],
      );
      return rows.map(toAsk);
    },
    async forgetSession(sessionId) {
      await pool.query("DELETE FROM dashboard_asks WHERE session_id = $1", [sessionId]);
    },
    async withdrawOrphans(isAlive) {
      let n = 0;
      for (const ask of await board.waiting(1000))
        if (ask.host === host && !isAlive(ask.pid) && (await board.withdraw(ask.id))) n++;
      return n;
    },
    async touchPresence(now = Date.now()) {
      await pool.query(
        "INSERT INTO dashboard_presence (id, pid, host, seen_at) VALUES (1, $1, $2, $3) " +
          "ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, host = excluded.host, seen_at = excluded.seen_at",
        [process.pid, host, now],
      );
    },
    async presenceSeenAt() {
      const { rows } = await pool.query<{ seen_at: number }>(
        "SELECT seen_at FROM dashboard_presence WHERE id = 1",
      );
      return rows[0]?.seen_at;
    },
    async clearPresence() {
      await pool.query("DELETE FROM dashboard_presence WHERE id = 1 AND pid = $1 AND host = $2", [
        process.pid,
        host,
      ]);
    },
  };
  return board;
}

export function pgPlatformHealth(pool: Pool): PlatformHealth {
  const host = hostname();
  return {
    async set(platform, state, error, now = Date.now()) {
      await pool.query(
        "INSERT INTO gateway_platform_health (platform, state, pid, host, last_error, updated_at) " +
          "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (platform) DO UPDATE SET state = excluded.state, " +
          "pid = excluded.pid, host = excluded.host, " +
          "last_error = COALESCE(excluded.last_error, gateway_platform_health.last_error), updated_at = excluded.updated_at",
        [platform, state, process.pid, host, error ?? null, now],
      );
    },
    async list() {
      const { rows } = await pool.query<PlatformHealthRow>(
        'SELECT platform, state, pid, host, last_error AS "lastError", updated_at AS "updatedAt" ' +
          'FROM gateway_platform_health ORDER BY platform COLLATE "C"',
      );
      return rows;
    },
  };
}
