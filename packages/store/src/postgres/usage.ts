// Usage rows on Postgres (SPEC F3): one per API call, the session's running totals moved in the
// same transaction (the SQLite engine's usage.ts).
import { StoreError } from "../errors.js";
import { checkedUsage, toUsageRow, type UsageDbRow, type UsageInput, type UsageRow } from "../usage.js";
import { requireCount, requireString } from "../validate.js";
import type { PoolClient } from "./pool.js";
import type { Db } from "./sessions.js";

export async function recordUsage(db: PoolClient, input: UsageInput): Promise<UsageRow> {
  const { counts, cost } = checkedUsage(input);
  const { rowCount } = await db.query(
    "UPDATE sessions SET api_calls = api_calls + 1, input_tokens = input_tokens + $2, " +
      "output_tokens = output_tokens + $3, cache_read_tokens = cache_read_tokens + $4, " +
      "cache_write_tokens = cache_write_tokens + $5, reasoning_tokens = reasoning_tokens + $6, " +
      "cost_usd = cost_usd + $7 WHERE id = $1",
    [input.sessionId, ...counts, cost],
  );
  if (!rowCount) throw new StoreError("not_found", `no session with id ${JSON.stringify(input.sessionId)}`);
  const { rows } = await db.query<UsageDbRow>(
    "INSERT INTO usage (session_id, task_id, provider, model, input_tokens, output_tokens, cache_read_tokens, " +
      "cache_write_tokens, reasoning_tokens, cost_usd, latency_ms, status, created_at) " +
      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING *",
    [
      input.sessionId,
      input.taskId ?? null,
      requireString(input.provider, "provider"),
      requireString(input.model, "model"),
      ...counts,
      cost,
      requireCount(input.latencyMs, "latencyMs"),
      requireString(input.status, "status"),
      Date.now(),
    ],
  );
  return toUsageRow(rows[0] as UsageDbRow);
}

export async function usageForSession(db: Db, sessionId: string): Promise<UsageRow[]> {
  const { rows } = await db.query<UsageDbRow>("SELECT * FROM usage WHERE session_id = $1 ORDER BY id", [
    sessionId,
  ]);
  return rows.map(toUsageRow);
}
