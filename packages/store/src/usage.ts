// One row per API call (SPEC F3); the session's running totals move in the same transaction.
import type { Usage } from "@iris/llm";
import type { Database, Statement, Transaction } from "./driver.js";
import { StoreError } from "./errors.js";
import { requireCount, requireString } from "./validate.js";

export interface UsageInput {
  sessionId: string;
  /** The turn (task) the call belongs to. */
  taskId?: string;
  provider: string;
  model: string;
  usage: Usage;
  costUsd: number;
  latencyMs: number;
  /** "ok", "error", … as the caller classifies the call. */
  status: string;
}

export interface UsageRow extends Usage {
  id: number;
  sessionId: string;
  taskId: string | null;
  provider: string;
  model: string;
  costUsd: number;
  latencyMs: number;
  status: string;
  createdAt: number;
}

export interface UsageDbRow {
  id: number;
  session_id: string;
  task_id: string | null;
  provider: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  cost_usd: number;
  latency_ms: number;
  status: string;
  created_at: number;
}

export class UsageRepo {
  private readonly insert: Statement;
  private readonly addTotals: Statement;
  private readonly bySession: Statement<UsageDbRow>;
  private readonly recordTx: Transaction<(input: UsageInput) => UsageRow>;

  constructor(db: Database) {
    this.insert = db.prepare(
      "INSERT INTO usage (session_id, task_id, provider, model, input_tokens, output_tokens, cache_read_tokens, " +
        "cache_write_tokens, reasoning_tokens, cost_usd, latency_ms, status, created_at) " +
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.addTotals = db.prepare(
      "UPDATE sessions SET api_calls = api_calls + 1, input_tokens = input_tokens + ?, " +
        "output_tokens = output_tokens + ?, cache_read_tokens = cache_read_tokens + ?, " +
        "cache_write_tokens = cache_write_tokens + ?, reasoning_tokens = reasoning_tokens + ?, " +
        "cost_usd = cost_usd + ? WHERE id = ?",
    );
    this.bySession = db.prepare("SELECT * FROM usage WHERE session_id = ? ORDER BY id");
    this.recordTx = db.transaction((input: UsageInput) => this.recordInTx(input));
  }

  record(input: UsageInput): UsageRow {
    return this.recordTx.immediate(input);
  }

  forSession(sessionId: string): UsageRow[] {
    return this.bySession.all(sessionId).map(toUsageRow);
  }

  private recordInTx(input: UsageInput): UsageRow {
    const { counts, cost } = checkedUsage(input);
    const changed = this.addTotals.run(...counts, cost, input.sessionId).changes;
    if (changed === 0)
      throw new StoreError("not_found", `no session with id ${JSON.stringify(input.sessionId)}`);
    const now = Date.now();
    const info = this.insert.run(
      input.sessionId,
      input.taskId ?? null,
      requireString(input.provider, "provider"),
      requireString(input.model, "model"),
      ...counts,
      cost,
      requireCount(input.latencyMs, "latencyMs"),
      requireString(input.status, "status"),
      now,
    );
    return toUsageRow({
      id: Number(info.lastInsertRowid),
      session_id: input.sessionId,
      task_id: input.taskId ?? null,
      provider: input.provider,
      model: input.model,
      input_tokens: counts[0],
      output_tokens: counts[1],
      cache_read_tokens: counts[2],
      cache_write_tokens: counts[3],
      reasoning_tokens: counts[4],
      cost_usd: cost,
      latency_ms: input.latencyMs,
      status: input.status,
      created_at: now,
    });
  }
}

/** The call's token counts (input, output, cache read, cache write, reasoning) and cost, checked. */
export function checkedUsage(input: UsageInput): {
  counts: readonly [number, number, number, number, number];
  cost: number;
} {
  const u = input.usage;
  const counts = [
    requireCount(u?.inputTokens, "usage.inputTokens"),
    requireCount(u?.outputTokens, "usage.outputTokens"),
    requireCount(u?.cacheReadTokens, "usage.cacheReadTokens"),
    requireCount(u?.cacheWriteTokens, "usage.cacheWriteTokens"),
    requireCount(u?.reasoningTokens, "usage.reasoningTokens"),
  ] as const;
  return { counts, cost: requireCount(input.costUsd, "costUsd") };
}

export function toUsageRow(r: UsageDbRow): UsageRow {
  return {
    id: r.id,
    sessionId: r.session_id,
    taskId: r.task_id,
    provider: r.provider,
    model: r.model,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
    cacheReadTokens: r.cache_read_tokens,
    cacheWriteTokens: r.cache_write_tokens,
    reasoningTokens: r.reasoning_tokens,
    costUsd: r.cost_usd,
    latencyMs: r.latency_ms,
    status: r.status,
    createdAt: r.created_at,
  };
}
