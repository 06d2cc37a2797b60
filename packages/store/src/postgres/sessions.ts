// Sessions on Postgres (SPEC D2): the same rows and rules as the SQLite engine's sessions.ts.
import { StoreError } from "../errors.js";
import { type SessionDbRow, type SessionRow, toSessionRow } from "../rows.js";
import {
  type CreateSessionInput,
  checkedSession,
  type ListSessionsOptions,
  type SessionPageOptions,
} from "../sessions.js";
import { requireString } from "../validate.js";
import type { Pool, PoolClient } from "./pool.js";
import { forgetSessionUsage } from "./usage.js";

/** A pool or one connection inside a transaction. */
export type Db = Pool | PoolClient;

export const SESSION_COLUMNS =
  "id, title, source, cwd, parent_session_id, system_prompt, model, provider, started_at, ended_at, end_reason, " +
  "active_leaf_id, api_calls, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, " +
  "reasoning_tokens, cost_usd";

const noSession = (id: string) => new StoreError("not_found", `no session with id ${JSON.stringify(id)}`);

export async function findSession(db: Db, id: string): Promise<SessionRow | undefined> {
  const { rows } = await db.query<SessionDbRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = $1`, [
    id,
  ]);
  return rows[0] ? toSessionRow(rows[0]) : undefined;
}

export async function getSession(db: Db, id: string): Promise<SessionRow> {
  const row = await findSession(db, id);
  if (!row) throw noSession(id);
  return row;
}

export async function createSession(db: Db, input: CreateSessionInput): Promise<SessionRow> {
  const { parent, values } = checkedSession(input);
  if (parent !== null) await getSession(db, parent);
  const { rows } = await db.query<SessionDbRow>(
    "INSERT INTO sessions (id, title, source, cwd, parent_session_id, system_prompt, model, provider, started_at) " +
      `VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${SESSION_COLUMNS}`,
    values,
  );
  return toSessionRow(rows[0] as SessionDbRow);
}

export async function listSessions(db: Db, options: ListSessionsOptions = {}): Promise<SessionRow[]> {
  const limit = options.limit ?? 50;
  const { rows } =
    options.source === undefined
      ? await db.query<SessionDbRow>(
          `SELECT ${SESSION_COLUMNS} FROM sessions ORDER BY started_at DESC, seq DESC LIMIT $1`,
          [limit],
        )
      : await db.query<SessionDbRow>(
          `SELECT ${SESSION_COLUMNS} FROM sessions WHERE source = $1 ORDER BY started_at DESC, seq DESC LIMIT $2`,
          [options.source, limit],
        );
  return rows.map(toSessionRow);
}

export async function sessionPage(db: Db, o: SessionPageOptions): Promise<SessionRow[]> {
  const { rows } = await db.query<SessionDbRow>(
    `SELECT ${SESSION_COLUMNS} FROM sessions WHERE source = $1 AND ($2::text IS NULL OR cwd = $2) ` +
      "AND ($3::text IS NULL OR end_reason IS NULL OR end_reason <> $3) " +
      "ORDER BY started_at DESC, seq DESC LIMIT $4 OFFSET $5",
    [o.source, o.cwd ?? null, o.notEndedBy ?? null, o.limit, o.offset],
  );
  return rows.map(toSessionRow);
}

/** A range of the primary key (ids compare byte by byte: the column is COLLATE "C"). */
export async function sessionsWithPrefix(db: Db, prefix: string, limit: number): Promise<SessionRow[]> {
  if (!prefix) return [];
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const { rows } = await db.query<SessionDbRow>(
    `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id >= $1 AND id < $2 ORDER BY id LIMIT $3`,
    [prefix, end, limit],
  );
  return rows.map(toSessionRow);
}

/** Ids ending with `tail` (6+ characters), through the index on their last six. */
export async function sessionsWithTail(db: Db, tail: string, limit: number): Promise<SessionRow[]> {
  if (tail.length < 6) return [];
  const { rows } = await db.query<SessionDbRow>(
    `SELECT ${SESSION_COLUMNS} FROM sessions WHERE right(id, 6) = $1 LIMIT $2`,
    [tail.slice(-6), limit],
  );
  return rows.map(toSessionRow).filter((r) => r.id.endsWith(tail));
}

export async function childSessions(db: Db, parentId: string): Promise<SessionRow[]> {
  const { rows } = await db.query<SessionDbRow>(
    `SELECT ${SESSION_COLUMNS} FROM sessions WHERE parent_session_id = $1 ORDER BY started_at DESC, seq DESC`,
    [parentId],
  );
  return rows.map(toSessionRow);
}

/** Sets columns of one session; throws not_found when there is none. */
export async function updateSession(db: Db, id: string, set: Record<string, unknown>): Promise<void> {
  const cols = Object.keys(set);
  const sql = `UPDATE sessions SET ${cols.map((c, i) => `${c} = $${i + 2}`).join(", ")} WHERE id = $1`;
  const { rowCount } = await db.query(sql, [id, ...cols.map((c) => set[c])]);
  if (!rowCount) throw noSession(id);
}

export async function endSession(db: Db, id: string, reason: string): Promise<SessionRow> {
  await updateSession(db, id, { ended_at: Date.now(), end_reason: requireString(reason, "end reason") });
  return getSession(db, id);
}

/** What a session cost with its subagents' sessions (source "delegate"), at any depth. */
export async function costWithChildren(db: Db, sessionId: string): Promise<number> {
  const { rows } = await db.query<{ cost: number }>(
    'WITH RECURSIVE tree(id) AS (SELECT $1::text COLLATE "C" UNION ALL SELECT s.id FROM sessions s JOIN tree t ' +
      "ON s.parent_session_id = t.id WHERE s.source = 'delegate') " +
      "SELECT COALESCE(SUM(cost_usd), 0) AS cost FROM sessions WHERE id IN (SELECT id FROM tree)",
    [sessionId],
  );
  return rows[0]?.cost ?? 0;
}

/** Removes a session and its rows; refused while another session builds on it. */
export async function deleteSession(db: PoolClient, id: string): Promise<void> {
  await getSession(db, id);
  const { rows } = await db.query<{ id: string }>(
    "SELECT id FROM sessions WHERE parent_session_id = $1 UNION " +
      "SELECT DISTINCT n.session_id FROM nodes n JOIN nodes p ON p.id = n.parent_id OR p.id = n.expands_to " +
      "WHERE p.session_id = $1 AND n.session_id <> $1",
    [id],
  );
  if (rows.length)
    throw new StoreError(
      "invalid_input",
      `session ${id} is continued by ${rows.map((d) => d.id).join(", ")}; delete ${rows.length > 1 ? "those" : "that one"} first`,
    );
  await forgetSessionUsage(db, id);
  for (const table of ["effects", "usage", "session_active_time", "session_leases"])
    await db.query(`DELETE FROM ${table} WHERE session_id = $1`, [id]);
  // Parent links inside the session point at its own rows: they go in one statement.
  await db.query("DELETE FROM nodes WHERE session_id = $1", [id]);
  await db.query("DELETE FROM sessions WHERE id = $1", [id]);
}
