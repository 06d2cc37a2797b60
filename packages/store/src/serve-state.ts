// `iris serve`'s durable state (migration 0017): Responses API conversations and Idempotency-Key
// answers. Each is keyed by an owner (the API key) so one key never reads another's; rows expire
// at `expires_at` and at most `max` are kept (the oldest written go first). Every write is one
// transaction, so two servers of one profile never leave more than `max` rows.
import type { Message } from "@iris/llm";
import type { Database } from "./driver.js";
import { type CachedDatabase, withStatementCache } from "./statement-cache.js";

export interface RecordedAnswerRow {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export class ServeState {
  private readonly db: CachedDatabase;

  constructor(db: Database) {
    this.db = withStatementCache(db);
  }

  /** The conversation stored under (owner, key), unless missing or expired at `now`. */
  response(owner: string, key: string, now = Date.now()): Message[] | undefined {
    return this.responseEntry(owner, key, now)?.history;
  }

  /**
   * The conversation under (owner, key) and the record kept beside it (serve's Responses API
   * object and its input items: opaque here), unless missing or expired at `now`.
   */
  responseEntry(
    owner: string,
    key: string,
    now = Date.now(),
  ): { history: Message[]; record?: unknown } | undefined {
    const row = this.db
      .prepare<{ history: string }>(
        "SELECT history FROM serve_responses WHERE owner = ? AND key = ? AND expires_at > ?",
      )
      .get(owner, key, now);
    if (!row) return undefined;
    // A bare array (no record) is how every entry was written before records were kept.
    const stored = JSON.parse(row.history) as Message[] | { history: Message[]; record: unknown };
    return Array.isArray(stored) ? { history: stored } : stored;
  }

  /**
   * Stores (or replaces, as the newest) the conversation under (owner, key), or under each of
   * several keys (a response id and its named conversation), serialised once, in one transaction;
   * `record` (JSON) is kept beside it under every key.
   */
  putResponse(
    owner: string,
    key: string | readonly string[],
    history: readonly Message[],
    limits: { expiresAt: number; max: number; now?: number },
    record?: unknown,
  ): void {
    const json = JSON.stringify(record === undefined ? history : { history, record });
    this.db
      .transaction(() => {
        this.db.prepare("DELETE FROM serve_responses WHERE expires_at <= ?").run(limits.now ?? Date.now());
        for (const k of typeof key === "string" ? [key] : key) {
          this.db.prepare("DELETE FROM serve_responses WHERE owner = ? AND key = ?").run(owner, k);
          this.db
            .prepare("INSERT INTO serve_responses (owner, key, history, expires_at) VALUES (?, ?, ?, ?)")
            .run(owner, k, json, limits.expiresAt);
        }
        trim(this.db, "serve_responses", limits.max);
      })
      .immediate();
  }

  /** Removes what (owner, key) holds; whether there was a live entry. */
  deleteResponse(owner: string, key: string, now = Date.now()): boolean {
    const r = this.db
      .prepare("DELETE FROM serve_responses WHERE owner = ? AND key = ? AND expires_at > ?")
      .run(owner, key, now);
    return r.changes > 0;
  }

  responseCount(): number {
    return count(this.db, "serve_responses");
  }

  /** The answer recorded under an idempotency scope, unless missing or expired at `now`. */
  answer(scope: string, now = Date.now()): RecordedAnswerRow | undefined {
    const row = this.db
      .prepare<{ status: number; headers: string; body: string }>(
        "SELECT status, headers, body FROM serve_idempotency WHERE scope = ? AND expires_at > ?",
      )
      .get(scope, now);
    return row
      ? { status: row.status, headers: JSON.parse(row.headers) as Record<string, string>, body: row.body }
      : undefined;
  }

  putAnswer(
    scope: string,
    answer: RecordedAnswerRow,
    limits: { expiresAt: number; max: number; now?: number },
  ): void {
    this.db
      .transaction(() => {
        this.db.prepare("DELETE FROM serve_idempotency WHERE expires_at <= ?").run(limits.now ?? Date.now());
        this.db.prepare("DELETE FROM serve_idempotency WHERE scope = ?").run(scope);
        this.db
          .prepare(
            "INSERT INTO serve_idempotency (scope, status, headers, body, expires_at) VALUES (?, ?, ?, ?, ?)",
          )
          .run(scope, answer.status, JSON.stringify(answer.headers), answer.body, limits.expiresAt);
        trim(this.db, "serve_idempotency", limits.max);
      })
      .immediate();
  }

  answerCount(): number {
    return count(this.db, "serve_idempotency");
  }
}

type Table = "serve_responses" | "serve_idempotency";

/** Keeps the `max` newest rows of `table`. */
function trim(db: CachedDatabase, table: Table, max: number): void {
  db.prepare(
    `DELETE FROM ${table} WHERE seq <= (SELECT seq FROM ${table} ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
  ).run(Math.max(0, Math.floor(max)));
}

function count(db: CachedDatabase, table: Table): number {
  return db.prepare<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).get()?.n ?? 0;
}
