// Sessions (SPEC D2): metadata, the frozen system prompt, the active leaf and running totals.

import type { Database, Statement } from "./driver.js";
import { StoreError } from "./errors.js";
import { newId, prefixEnd, SHORT_ID_LENGTH } from "./ids.js";
import { SESSION_COLUMNS, type SessionDbRow, type SessionRow, toSessionRow } from "./rows.js";
import { optionalString, requireString } from "./validate.js";

/** Sessions whose short id starts with a prefix: a range of migration 0034's index (a test
 *  reads its query plan). */
export const SHORT_ID_PREFIX_SQL = `SELECT ${SESSION_COLUMNS} FROM sessions WHERE substr(id, -8) >= ? AND substr(id, -8) < ? ORDER BY substr(id, -8) LIMIT ?`;

export interface CreateSessionInput {
  title?: string;
  /** Where the session comes from: cli, gateway:telegram, acp, api, batch, cron, … */
  source: string;
  cwd?: string;
  parentSessionId?: string;
  systemPrompt?: string;
  model?: string;
  provider?: string;
  /** Defaults to a random UUID. */
  id?: string;
}

export interface ListSessionsOptions {
  limit?: number;
  source?: string;
}

/** One page of one source's sessions, newest first (ACP's session/list). */
export interface SessionPageOptions {
  source: string;
  /** Only sessions started in this folder. */
  cwd?: string;
  /** Leave out the sessions that ended for this reason (compression: listed under the child). */
  notEndedBy?: string;
  offset: number;
  limit: number;
}

/**
 * A new session's row, checked: the values of (id, title, source, cwd, parent_session_id,
 * system_prompt, model, provider, started_at), as every engine inserts them.
 */
export function checkedSession(input: CreateSessionInput): {
  id: string;
  parent: string | null;
  values: unknown[];
} {
  const id = input.id === undefined ? newId() : requireString(input.id, "session id");
  const parent = optionalString(input.parentSessionId, "parentSessionId");
  const values = [
    id,
    optionalString(input.title, "title"),
    requireString(input.source, "session source"),
    optionalString(input.cwd, "cwd"),
    parent,
    optionalString(input.systemPrompt, "systemPrompt"),
    optionalString(input.model, "model"),
    optionalString(input.provider, "provider"),
    Date.now(),
  ];
  return { id, parent, values };
}

export class SessionRepo {
  private readonly insert: Statement;
  private readonly byId: Statement<SessionDbRow>;
  private readonly recent: Statement<SessionDbRow>;
  private readonly recentBySource: Statement<SessionDbRow>;
  private readonly end: Statement;
  private readonly prompt: Statement;
  private readonly modelUpdate: Statement;
  private readonly title: Statement;
  private readonly byPrefix: Statement<SessionDbRow>;
  private readonly byShortId: Statement<SessionDbRow>;
  private readonly byShortIdPrefix: Statement<SessionDbRow>;
  private readonly byParent: Statement<SessionDbRow>;
  private readonly sourcePage: Statement<SessionDbRow>;

  constructor(db: Database) {
    this.insert = db.prepare(
      "INSERT INTO sessions (id, title, source, cwd, parent_session_id, system_prompt, model, provider, started_at) " +
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.byId = db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`);
    this.recent = db.prepare(
      `SELECT ${SESSION_COLUMNS} FROM sessions ORDER BY started_at DESC, rowid DESC LIMIT ?`,
    );
    this.recentBySource = db.prepare(
      `SELECT ${SESSION_COLUMNS} FROM sessions WHERE source = ? ORDER BY started_at DESC, rowid DESC LIMIT ?`,
    );
    // The source filter and order come from the start index; the rest filters what it reads.
    this.sourcePage = db.prepare(
      `SELECT ${SESSION_COLUMNS} FROM sessions WHERE source = @source ` +
        "AND (@cwd IS NULL OR cwd = @cwd) AND (@gone IS NULL OR end_reason IS NULL OR end_reason <> @gone) " +
        "ORDER BY started_at DESC, rowid DESC LIMIT @limit OFFSET @offset",
    );
    this.end = db.prepare("UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ?");
    this.prompt = db.prepare("UPDATE sessions SET system_prompt = ? WHERE id = ?");
    this.modelUpdate = db.prepare("UPDATE sessions SET model = ?, provider = ? WHERE id = ?");
    this.title = db.prepare("UPDATE sessions SET title = ? WHERE id = ?");
    // A range of the primary key (a LIKE would scan: SQLite's LIKE is case-insensitive).
    this.byPrefix = db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id >= ? AND id < ? LIMIT ?`);
    this.byShortId = db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE substr(id, -6) = ? LIMIT ?`);
    this.byShortIdPrefix = db.prepare(SHORT_ID_PREFIX_SQL);
    this.byParent = db.prepare(
      `SELECT ${SESSION_COLUMNS} FROM sessions WHERE parent_session_id = ? ORDER BY started_at DESC, rowid DESC`,
    );
  }

  /** Sessions whose id starts with `prefix` (at most `limit`), read from the primary key's index. */
  withPrefix(prefix: string, limit: number): SessionRow[] {
    return this.byPrefix.all(prefix, prefixEnd(prefix), limit).map(toSessionRow);
  }

  /** Sessions whose short id (last 8 characters) starts with `prefix`: a range of migration
   *  0034's index, not a scan. */
  withShortIdPrefix(prefix: string, limit: number): SessionRow[] {
    if (!prefix || prefix.length > SHORT_ID_LENGTH) return [];
    return this.byShortIdPrefix.all(prefix, prefixEnd(prefix), limit).map(toSessionRow);
  }

  /** Sessions whose id ends with `tail` (6+ characters; migration 0024's index on the last 6). */
  withTail(tail: string, limit: number): SessionRow[] {
    if (tail.length < 6) return [];
    return this.byShortId
      .all(tail.slice(-6), limit)
      .map(toSessionRow)
      .filter((r) => r.id.endsWith(tail));
  }

  /** The sessions started from `parentId` (compression children, subagents), newest first. */
  children(parentId: string): SessionRow[] {
    return this.byParent.all(parentId).map(toSessionRow);
  }

  create(input: CreateSessionInput): SessionRow {
    const { id, parent, values } = checkedSession(input);
    if (parent !== null) this.get(parent);
    this.insert.run(...values);
    return this.get(id);
  }

  find(id: string): SessionRow | undefined {
    const row = this.byId.get(id);
    return row ? toSessionRow(row) : undefined;
  }

  get(id: string): SessionRow {
    const row = this.find(id);
    if (!row) throw new StoreError("not_found", `no session with id ${JSON.stringify(id)}`);
    return row;
  }

  list(options: ListSessionsOptions = {}): SessionRow[] {
    const limit = options.limit ?? 50;
    const rows =
      options.source === undefined ? this.recent.all(limit) : this.recentBySource.all(options.source, limit);
    return rows.map(toSessionRow);
  }

  page(o: SessionPageOptions): SessionRow[] {
    const params = { source: o.source, cwd: o.cwd ?? null, gone: o.notEndedBy ?? null };
    return this.sourcePage.all({ ...params, limit: o.limit, offset: o.offset }).map(toSessionRow);
  }

  endSession(id: string, reason: string): SessionRow {
    this.mustChange(this.end.run(Date.now(), requireString(reason, "end reason"), id).changes, id);
    return this.get(id);
  }

  /** The prompt is frozen per session (SPEC U5); this is for the one time it is built or rebuilt. */
  setSystemPrompt(id: string, text: string): void {
    this.mustChange(this.prompt.run(requireString(text, "system prompt"), id).changes, id);
  }

  setModel(id: string, model: string, provider: string): void {
    const changes = this.modelUpdate.run(
      requireString(model, "model"),
      requireString(provider, "provider"),
      id,
    );
    this.mustChange(changes.changes, id);
  }

  setTitle(id: string, title: string): void {
    this.mustChange(this.title.run(requireString(title, "title"), id).changes, id);
  }

  private mustChange(changes: number, id: string): void {
    if (changes === 0) throw new StoreError("not_found", `no session with id ${JSON.stringify(id)}`);
  }
}
