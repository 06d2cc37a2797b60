// Usage rows on Postgres (SPEC F3): one per API call, the session's running totals and the day's
// sums (usage_daily, the dashboard's and `iris usage --by`'s) moved in the same transaction (the
// SQLite engine's usage.ts and its triggers).
import { StoreError } from "../errors.js";
import { checkedUsage, toUsageRow, type UsageDbRow, type UsageInput, type UsageRow } from "../usage.js";
import { requireCount, requireString } from "../validate.js";
import type { Pool, PoolClient } from "./pool.js";

const DAY_MS = 86_400_000;

export async function recordUsage(db: PoolClient, input: UsageInput): Promise<UsageRow> {
  const { counts, cost } = checkedUsage(input);
  const updated = await db.query<{ source: string }>(
    "UPDATE sessions SET api_calls = api_calls + 1, input_tokens = input_tokens + $2, " +
      "output_tokens = output_tokens + $3, cache_read_tokens = cache_read_tokens + $4, " +
      "cache_write_tokens = cache_write_tokens + $5, reasoning_tokens = reasoning_tokens + $6, " +
      "cost_usd = cost_usd + $7 WHERE id = $1 RETURNING source",
    [input.sessionId, ...counts, cost],
  );
  const source = updated.rows[0]?.source;
  if (source === undefined)
    throw new StoreError("not_found", `no session with id ${JSON.stringify(input.sessionId)}`);
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
  const row = toUsageRow(rows[0] as UsageDbRow);
  await db.query(
    "INSERT INTO usage_daily VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $8, $9) " +
      "ON CONFLICT (day, provider, model, source) DO UPDATE SET calls = usage_daily.calls + 1, " +
      "input_tokens = usage_daily.input_tokens + excluded.input_tokens, " +
      "output_tokens = usage_daily.output_tokens + excluded.output_tokens, " +
      "cache_read_tokens = usage_daily.cache_read_tokens + excluded.cache_read_tokens, " +
      "cache_write_tokens = usage_daily.cache_write_tokens + excluded.cache_write_tokens, " +
      "cost_usd = usage_daily.cost_usd + excluded.cost_usd",
    [
      Math.floor(row.createdAt / DAY_MS),
      row.provider,
      row.model,
      source,
      row.inputTokens,
      row.outputTokens,
      row.cacheReadTokens,
      row.cacheWriteTokens,
      row.costUsd,
    ],
  );
  return row;
}

/** Takes a session's calls out of the day's sums, before its usage rows are deleted. */
export async function forgetSessionUsage(db: PoolClient, sessionId: string): Promise<void> {
  await db.query(
    "UPDATE usage_daily d SET calls = d.calls - x.calls, input_tokens = d.input_tokens - x.input_tokens, " +
      "output_tokens = d.output_tokens - x.output_tokens, cache_read_tokens = d.cache_read_tokens - x.cache_read_tokens, " +
      "cache_write_tokens = d.cache_write_tokens - x.cache_write_tokens, cost_usd = d.cost_usd - x.cost_usd " +
      "FROM (SELECT u.created_at / 86400000 AS day, u.provider, u.model, s.source, COUNT(*) AS calls, " +
      "SUM(u.input_tokens) AS input_tokens, SUM(u.output_tokens) AS output_tokens, " +
      "SUM(u.cache_read_tokens) AS cache_read_tokens, SUM(u.cache_write_tokens) AS cache_write_tokens, " +
      "SUM(u.cost_usd) AS cost_usd FROM usage u JOIN sessions s ON s.id = u.session_id " +
      "WHERE u.session_id = $1 GROUP BY 1, 2, 3, 4) x " +
      "WHERE d.day = x.day AND d.provider = x.provider AND d.model = x.model AND d.source = x.source",
    [sessionId],
  );
  await db.query("DELETE FROM usage_daily WHERE calls <= 0");
}

export async function usageForSession(db: Pool | PoolClient, sessionId: string): Promise<UsageRow[]> {
  const { rows } = await db.query<UsageDbRow>("SELECT * FROM usage WHERE session_id = $1 ORDER BY id", [
    sessionId,
  ]);
  return rows.map(toUsageRow);
}
