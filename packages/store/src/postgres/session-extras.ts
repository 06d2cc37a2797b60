// The small per-session and per-route tables on Postgres (migration 1): turn leases (one live
// turn per session across processes and machines), route cooldowns and active time, with the
// SQLite engine's rules (session-leases.ts, route-cooldowns.ts, active-time.ts).
import type { ActiveTime } from "../active-time.js";
import { type CooldownDbRow, type RouteCooldownRow, toCooldownRow } from "../route-cooldowns.js";
import {
  type AcquireLeaseInput,
  type AcquireLeaseResult,
  heldByAnother,
  type LeaseDbRow,
  type LeaseHolder,
  type SessionLease,
  toLease,
} from "../session-leases.js";
import type { ActiveTimeState, CooldownState, LeaseState } from "../state.js";
import { inTransaction, type Pool } from "./pool.js";

const LEASE = "session_id, pid, host, acquired_at, expires_at";

export function pgLeases(pool: Pool): LeaseState {
  return {
    // The row is made if missing, then locked: two processes cannot both win. A row just made
    // (expiry 0) is free, so it is only ever committed with its holder.
    acquire: (input: AcquireLeaseInput) =>
      inTransaction(pool, async (db): Promise<AcquireLeaseResult> => {
        await db.query(
          "INSERT INTO session_leases (session_id, pid, host, acquired_at, expires_at) VALUES ($1, 0, '', 0, 0) " +
            "ON CONFLICT (session_id) DO NOTHING",
          [input.sessionId],
        );
        const { rows } = await db.query<LeaseDbRow>(
          `SELECT ${LEASE} FROM session_leases WHERE session_id = $1 FOR UPDATE`,
          [input.sessionId],
        );
        const held = toLease(rows[0] as LeaseDbRow);
        if (heldByAnother(held, input)) return { ok: false, heldBy: held };
        const lease: SessionLease = {
          sessionId: input.sessionId,
          ...input.holder,
          acquiredAt: input.now,
          expiresAt: input.now + input.ttlMs,
        };
        await db.query(
          "UPDATE session_leases SET pid = $2, host = $3, acquired_at = $4, expires_at = $5 WHERE session_id = $1",
          [lease.sessionId, lease.pid, lease.host, lease.acquiredAt, lease.expiresAt],
        );
        return { ok: true, lease };
      }),
    renew: async (sessionId: string, holder: LeaseHolder, expiresAt: number) => {
      const { rowCount } = await pool.query(
        "UPDATE session_leases SET expires_at = $4 WHERE session_id = $1 AND pid = $2 AND host = $3",
        [sessionId, holder.pid, holder.host, expiresAt],
      );
      return (rowCount ?? 0) > 0;
    },
    release: async (sessionId: string, holder: LeaseHolder) => {
      await pool.query("DELETE FROM session_leases WHERE session_id = $1 AND pid = $2 AND host = $3", [
        sessionId,
        holder.pid,
        holder.host,
      ]);
    },
    list: async () => {
      const { rows } = await pool.query<LeaseDbRow>(`SELECT ${LEASE} FROM session_leases`);
      return rows.map(toLease);
    },
  };
}

export function pgCooldowns(pool: Pool): CooldownState {
  const COLS = "route_key, until_ms, reason, set_at";
  return {
    set: async (routeKey: string, untilMs: number, reason: string | undefined, now: number) => {
      await pool.query(
        `INSERT INTO route_cooldowns (${COLS}) VALUES ($1, $2, $3, $4) ON CONFLICT (route_key) DO UPDATE ` +
          "SET until_ms = excluded.until_ms, reason = excluded.reason, set_at = excluded.set_at",
        [routeKey, Math.round(untilMs), reason ?? null, now],
      );
    },
    clear: async (routeKey: string) => {
      await pool.query("DELETE FROM route_cooldowns WHERE route_key = $1", [routeKey]);
    },
    get: async (routeKey: string): Promise<RouteCooldownRow | undefined> => {
      const { rows } = await pool.query<CooldownDbRow>(
        `SELECT ${COLS} FROM route_cooldowns WHERE route_key = $1`,
        [routeKey],
      );
      return rows[0] ? toCooldownRow(rows[0]) : undefined;
    },
    listActive: async (now: number) => {
      await pool.query("DELETE FROM route_cooldowns WHERE until_ms <= $1", [now]);
      const { rows } = await pool.query<CooldownDbRow>(
        `SELECT ${COLS} FROM route_cooldowns WHERE until_ms > $1 ORDER BY until_ms DESC`,
        [now],
      );
      return rows.map(toCooldownRow);
    },
  };
}

export function pgActiveTime(pool: Pool): ActiveTimeState {
  return {
    addTurn: async (sessionId: string, ms: number) => {
      await pool.query(
        "INSERT INTO session_active_time (session_id, active_ms, turns) VALUES ($1, $2, 1) ON CONFLICT (session_id) " +
          "DO UPDATE SET active_ms = session_active_time.active_ms + excluded.active_ms, turns = session_active_time.turns + 1",
        [sessionId, Math.max(0, Math.round(ms))],
      );
    },
    get: async (sessionId: string): Promise<ActiveTime> => {
      const { rows } = await pool.query<{ active_ms: number; turns: number }>(
        "SELECT active_ms, turns FROM session_active_time WHERE session_id = $1",
        [sessionId],
      );
      return { activeMs: rows[0]?.active_ms ?? 0, turns: rows[0]?.turns ?? 0 };
    },
  };
}
