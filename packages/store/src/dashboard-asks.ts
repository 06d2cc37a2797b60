// The board of waiting questions (migration 0031): a process that asks for an approval or a
// clarification publishes it here, the dashboard (another process) answers it by request id, and
// the asker picks the answer up. The first answer wins: the asker's own front end or the board.
import type { Database } from "./driver.js";
import { type CachedDatabase, withStatementCache } from "./statement-cache.js";

export type AskKind = "approval" | "clarify";
export type AskState = "waiting" | "answered" | "withdrawn";

export interface AskRow {
  id: string;
  sessionId: string;
  kind: AskKind;
  source: string;
  pid: number;
  /** The asker's machine where the engine is shared by several (Postgres); absent: this one. */
  host?: string;
  state: AskState;
  createdAt: number;
  answeredAt: number | null;
  answer: string | null;
  answeredBy: string | null;
  /** The request as the asker described it (JSON: tool, command, reason, choices, …). */
  question: unknown;
}

interface Raw extends Omit<AskRow, "question"> {
  question: string;
}

const COLUMNS =
  "id, session_id AS sessionId, kind, source, pid, state, created_at AS createdAt, answered_at AS answeredAt, " +
  "answer, answered_by AS answeredBy, question";

const toRow = (r: Raw): AskRow => ({ ...r, question: JSON.parse(r.question) as unknown });

export class AskBoard {
  private readonly stmts: CachedDatabase;

  constructor(db: Database) {
    this.stmts = withStatementCache(db);
  }

  publish(ask: { id: string; sessionId: string; kind: AskKind; source: string; question: unknown }): void {
    this.stmts
      .prepare(
        "INSERT INTO dashboard_asks (id, session_id, kind, source, pid, state, created_at, question) " +
          "VALUES (?, ?, ?, ?, ?, 'waiting', ?, ?)",
      )
      .run(
        ask.id,
        ask.sessionId,
        ask.kind,
        ask.source,
        process.pid,
        Date.now(),
        JSON.stringify(ask.question),
      );
  }

  /** Settles a waiting ask; false when it was already answered or withdrawn (or never existed). */
  answer(id: string, answer: string, by: string): boolean {
    return (
      this.stmts
        .prepare(
          "UPDATE dashboard_asks SET state = 'answered', answer = ?, answered_by = ?, answered_at = ? " +
            "WHERE id = ? AND state = 'waiting'",
        )
        .run(answer, by, Date.now(), id).changes === 1
    );
  }

  /** The asker no longer waits (answered elsewhere, timed out, turn ended). */
  withdraw(id: string): boolean {
    return (
      this.stmts
        .prepare(
          "UPDATE dashboard_asks SET state = 'withdrawn', answered_at = ? WHERE id = ? AND state = 'waiting'",
        )
        .run(Date.now(), id).changes === 1
    );
  }

  get(id: string): AskRow | undefined {
    const r = this.stmts.prepare<Raw>(`SELECT ${COLUMNS} FROM dashboard_asks WHERE id = ?`).get(id);
    return r ? toRow(r) : undefined;
  }

  /** Waiting asks, oldest first (dashboard_asks_waiting). */
  waiting(limit = 100): AskRow[] {
    return this.stmts
      .prepare<Raw>(
        `SELECT ${COLUMNS} FROM dashboard_asks WHERE state = 'waiting' ORDER BY created_at LIMIT ?`,
      )
      .all(limit)
      .map(toRow);
  }

  /** A session's asks, oldest first, however they were settled. */
  forSession(sessionId: string, limit = 200): AskRow[] {
    return this.stmts
      .prepare<Raw>(`SELECT ${COLUMNS} FROM dashboard_asks WHERE session_id = ? ORDER BY created_at LIMIT ?`)
      .all(sessionId, limit)
      .map(toRow);
  }

  /** Removes a deleted session's asks. */
  forgetSession(sessionId: string): void {
    this.stmts.prepare("DELETE FROM dashboard_asks WHERE session_id = ?").run(sessionId);
  }

  /** Marks the asks of processes that are gone as withdrawn (a crash leaves them waiting). */
  withdrawOrphans(isAlive: (pid: number) => boolean): number {
    let n = 0;
    for (const ask of this.waiting(1000)) if (!isAlive(ask.pid) && this.withdraw(ask.id)) n++;
    return n;
  }

  /** A running dashboard says so every few seconds; askers without a front end wait for it only then. */
  touchPresence(now = Date.now()): void {
    this.stmts
      .prepare(
        "INSERT INTO dashboard_presence (id, pid, seen_at) VALUES (1, ?, ?) " +
          "ON CONFLICT(id) DO UPDATE SET pid = excluded.pid, seen_at = excluded.seen_at",
      )
      .run(process.pid, now);
  }

  presenceSeenAt(): number | undefined {
    const r = this.stmts
      .prepare<{ seen_at: number }>("SELECT seen_at FROM dashboard_presence WHERE id = 1")
      .get();
    return r?.seen_at;
  }

  clearPresence(): void {
    this.stmts.prepare("DELETE FROM dashboard_presence WHERE id = 1 AND pid = ?").run(process.pid);
  }
}
