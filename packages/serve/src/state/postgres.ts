// `iris serve`'s state on Postgres, shared by every replica of the profile: each write is one
// transaction, a rewritten entry takes a new sequence number (the newest survive the bound), and
// a key's requests of the last minute are counted under a per-key transaction lock, so replicas
// together allow `requests_per_minute`.
import type { PostgresQuery, PostgresTables } from "@iris/host";
import type { Message } from "@iris/llm";
import { PostgresStreamLog } from "./postgres-streams.js";
import {
  type Bounds,
  entryJson,
  parseEntry,
  type RecordedAnswer,
  type ServeState,
  type StoredEntry,
} from "./serve-state.js";

export class PostgresServeState implements ServeState {
  readonly streams: PostgresStreamLog;

  constructor(private readonly tables: PostgresTables) {
    this.streams = new PostgresStreamLog(tables);
  }

  async responseEntry(owner: string, key: string, now: number): Promise<StoredEntry | undefined> {
    const { rows } = await this.tables.query<{ history: string }>(
      "SELECT history FROM serve_responses WHERE owner = $1 AND key = $2 AND expires_at > $3",
      [owner, key, now],
    );
    return rows[0] ? parseEntry(rows[0].history) : undefined;
  }

  putResponse(
    owner: string,
    keys: readonly string[],
    history: readonly Message[],
    bounds: Bounds,
    record?: unknown,
  ): Promise<void> {
    const json = entryJson(history, record);
    return this.tables.transaction(async (tx) => {
      await tx.query("DELETE FROM serve_responses WHERE expires_at <= $1", [bounds.now]);
      for (const k of keys)
        await tx.query(
          "INSERT INTO serve_responses (owner, key, history, expires_at) VALUES ($1, $2, $3, $4) " +
            "ON CONFLICT (owner, key) DO UPDATE SET history = excluded.history, expires_at = excluded.expires_at, " +
            "seq = nextval(pg_get_serial_sequence('serve_responses', 'seq'))",
          [owner, k, json, bounds.expiresAt],
        );
      await trim(tx, "serve_responses", bounds.max);
    });
  }

  async deleteResponse(owner: string, key: string, now: number): Promise<boolean> {
    const r = await this.tables.query(
      "DELETE FROM serve_responses WHERE owner = $1 AND key = $2 AND expires_at > $3",
      [owner, key, now],
    );
    return r.rowCount > 0;
  }

  responseCount(): Promise<number> {
    return count(this.tables, "serve_responses");
  }

  async answer(scope: string, now: number): Promise<RecordedAnswer | undefined> {
    const { rows } = await this.tables.query<{ status: number; headers: string; body: string }>(
      "SELECT status, headers, body FROM serve_idempotency WHERE scope = $1 AND expires_at > $2 AND status > 0",
      [scope, now],
    );
    const row = rows[0];
    return row
      ? { status: row.status, headers: JSON.parse(row.headers) as Record<string, string>, body: row.body }
      : undefined;
  }

  putAnswer(scope: string, answer: RecordedAnswer, bounds: Bounds): Promise<void> {
    return this.tables.transaction(async (tx) => {
      await tx.query("DELETE FROM serve_idempotency WHERE expires_at <= $1", [bounds.now]);
      await tx.query(
        "INSERT INTO serve_idempotency (scope, status, headers, body, expires_at) VALUES ($1, $2, $3, $4, $5) " +
          "ON CONFLICT (scope) DO UPDATE SET status = excluded.status, headers = excluded.headers, " +
          "body = excluded.body, expires_at = excluded.expires_at, " +
          "seq = nextval(pg_get_serial_sequence('serve_idempotency', 'seq'))",
        [scope, answer.status, JSON.stringify(answer.headers), answer.body, bounds.expiresAt],
      );
      await trim(tx, "serve_idempotency", bounds.max);
    });
  }

  async claimAnswer(
    scope: string,
    claim: { expiresAt: number; now: number },
  ): Promise<RecordedAnswer | "claimed" | "running"> {
    // A claim is a row with status 0; it takes the place of an expired row only, so of two
    // replicas claiming at once exactly one gets it.
    const taken = await this.tables.query(
      "INSERT INTO serve_idempotency (scope, status, headers, body, expires_at) VALUES ($1, 0, '{}', '', $2) " +
        "ON CONFLICT (scope) DO UPDATE SET status = 0, headers = '{}', body = '', expires_at = excluded.expires_at, " +
        "seq = nextval(pg_get_serial_sequence('serve_idempotency', 'seq')) WHERE serve_idempotency.expires_at <= $3",
      [scope, claim.expiresAt, claim.now],
    );
    if (taken.rowCount > 0) return "claimed";
    return (await this.answer(scope, claim.now)) ?? "running";
  }

  async releaseClaim(scope: string): Promise<void> {
    await this.tables.query("DELETE FROM serve_idempotency WHERE scope = $1 AND status = 0", [scope]);
  }

  answerCount(): Promise<number> {
    return count(this.tables, "serve_idempotency");
  }

  countRequest(key: string, limit: number, now: number): Promise<number | undefined> {
    return this.tables.transaction(async (tx) => {
      // One key's counters at a time across replicas (released at commit).
      await tx.query(
        "SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.serve_request_times'), hashtext($1))",
        [key],
      );
      await tx.query("DELETE FROM serve_request_times WHERE key = $1 AND at <= $2", [key, now - 60_000]);
      const { rows } = await tx.query<{ n: number; oldest: number | null }>(
        "SELECT count(*)::int AS n, min(at) AS oldest FROM serve_request_times WHERE key = $1",
        [key],
      );
      const seen = rows[0];
      if (seen && seen.n >= limit) return (seen.oldest ?? now) + 60_000 - now;
      await tx.query("INSERT INTO serve_request_times (key, at) VALUES ($1, $2)", [key, now]);
      return undefined;
    });
  }
}

/**
 * Keeps the `max` newest rows of `table`, as the last step of a write. The table's lock (held to
 * the commit) makes trims take turns: each one sees every row the trims before it left, so
 * replicas writing at once never leave more than `max`.
 */
async function trim(
  tx: PostgresQuery,
  table: "serve_responses" | "serve_idempotency",
  max: number,
): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.' || $1))", [table]);
  await tx.query(
    `DELETE FROM ${table} WHERE seq <= (SELECT seq FROM ${table} ORDER BY seq DESC LIMIT 1 OFFSET $1)`,
    [Math.max(0, Math.floor(max))],
  );
}

async function count(q: PostgresQuery, table: "serve_responses" | "serve_idempotency"): Promise<number> {
  const { rows } = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]?.n ?? 0;
}
