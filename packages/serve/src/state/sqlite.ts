// `iris serve`'s state on SQLite: the profile's state.db through the store's synchronous port
// (statements compiled once), each write one transaction under the file's write lock.
import type { SqliteTables } from "@iris/host";
import type { Message } from "@iris/llm";
import { MinuteWindows } from "./minute-windows.js";
import {
  type Bounds,
  entryJson,
  parseEntry,
  type RecordedAnswer,
  type ServeState,
  type StoredEntry,
} from "./serve-state.js";
import { SqliteStreamLog } from "./sqlite-streams.js";

export class SqliteServeState implements ServeState {
  private readonly windows = new MinuteWindows();
  readonly streams: SqliteStreamLog;

  constructor(private readonly tables: SqliteTables) {
    this.streams = new SqliteStreamLog(tables);
  }

  async responseEntry(owner: string, key: string, now: number): Promise<StoredEntry | undefined> {
    const row = this.tables.get<{ history: string }>(
      "SELECT history FROM serve_responses WHERE owner = ? AND key = ? AND expires_at > ?",
      owner,
      key,
      now,
    );
    return row ? parseEntry(row.history) : undefined;
  }

  async putResponse(
    owner: string,
    keys: readonly string[],
    history: readonly Message[],
    bounds: Bounds,
    record?: unknown,
  ): Promise<void> {
    const json = entryJson(history, record);
    this.tables.transaction(() => {
      this.tables.run("DELETE FROM serve_responses WHERE expires_at <= ?", bounds.now);
      for (const k of keys) {
        // Deleted and inserted again, so a rewritten entry counts as the newest.
        this.tables.run("DELETE FROM serve_responses WHERE owner = ? AND key = ?", owner, k);
        this.tables.run(
          "INSERT INTO serve_responses (owner, key, history, expires_at) VALUES (?, ?, ?, ?)",
          owner,
          k,
          json,
          bounds.expiresAt,
        );
      }
      this.trim("serve_responses", bounds.max);
    });
  }

  async deleteResponse(owner: string, key: string, now: number): Promise<boolean> {
    return (
      this.tables.run(
        "DELETE FROM serve_responses WHERE owner = ? AND key = ? AND expires_at > ?",
        owner,
        key,
        now,
      ).changes > 0
    );
  }

  async responseCount(): Promise<number> {
    return this.tables.get<{ n: number }>("SELECT COUNT(*) AS n FROM serve_responses")?.n ?? 0;
  }

  async answer(scope: string, now: number): Promise<RecordedAnswer | undefined> {
    const row = this.tables.get<{ status: number; headers: string; body: string }>(
      "SELECT status, headers, body FROM serve_idempotency WHERE scope = ? AND expires_at > ?",
      scope,
      now,
    );
    return row
      ? { status: row.status, headers: JSON.parse(row.headers) as Record<string, string>, body: row.body }
      : undefined;
  }

  async putAnswer(scope: string, answer: RecordedAnswer, bounds: Bounds): Promise<void> {
    this.tables.transaction(() => {
      this.tables.run("DELETE FROM serve_idempotency WHERE expires_at <= ?", bounds.now);
      this.tables.run("DELETE FROM serve_idempotency WHERE scope = ?", scope);
      this.tables.run(
        "INSERT INTO serve_idempotency (scope, status, headers, body, expires_at) VALUES (?, ?, ?, ?, ?)",
        scope,
        answer.status,
        JSON.stringify(answer.headers),
        answer.body,
        bounds.expiresAt,
      );
      this.trim("serve_idempotency", bounds.max);
    });
  }

  async claimAnswer(scope: string, claim: { now: number }): Promise<RecordedAnswer | "claimed"> {
    return (await this.answer(scope, claim.now)) ?? "claimed";
  }

  async releaseClaim(): Promise<void> {}

  async answerCount(): Promise<number> {
    return this.tables.get<{ n: number }>("SELECT COUNT(*) AS n FROM serve_idempotency")?.n ?? 0;
  }

  countRequest(key: string, limit: number, now: number): Promise<number | undefined> {
    return this.windows.countRequest(key, limit, now);
  }

  /** Keeps the `max` newest rows of `table`. */
  private trim(table: "serve_responses" | "serve_idempotency", max: number): void {
    this.tables.run(
      `DELETE FROM ${table} WHERE seq <= (SELECT seq FROM ${table} ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
      Math.max(0, Math.floor(max)),
    );
  }
}
