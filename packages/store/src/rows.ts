// The rows the store hands out (camelCase) and the mapping from the SQLite rows (snake_case).
import type { ApiMode, Message, Origin, Usage } from "@iris/llm";

export interface SessionTotals {
  apiCalls: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  costUsd: number;
}

export interface SessionRow extends SessionTotals {
  id: string;
  title: string | null;
  source: string;
  cwd: string | null;
  parentSessionId: string | null;
  systemPrompt: string | null;
  model: string | null;
  provider: string | null;
  startedAt: number;
  endedAt: number | null;
  endReason: string | null;
  activeLeafId: string | null;
}

export type NodeKind = "message" | "compaction" | "note";

export interface NodeRow {
  id: string;
  /** Insertion order across the whole database. */
  seq: number;
  sessionId: string;
  parentId: string | null;
  kind: NodeKind;
  role: Message["role"] | null;
  /** The canonical message exactly as it was given (provider payloads untouched). */
  message: Message | null;
  /** Plain text of a compaction summary or a note. */
  text: string | null;
  expandsTo: string | null;
  origin: Origin | null;
  /** Token count of this node's content, when measured or estimated. */
  tokens: number | null;
  /** The API usage of the call that produced this node (assistant messages). */
  usage: Usage | null;
  createdAt: number;
}

export interface SessionDbRow {
  id: string;
  title: string | null;
  source: string;
  cwd: string | null;
  parent_session_id: string | null;
  system_prompt: string | null;
  model: string | null;
  provider: string | null;
  started_at: number;
  ended_at: number | null;
  end_reason: string | null;
  active_leaf_id: string | null;
  api_calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  cost_usd: number;
}

export interface NodeDbRow {
  seq: number;
  id: string;
  session_id: string;
  parent_id: string | null;
  kind: NodeKind;
  role: Message["role"] | null;
  payload: string | null;
  body_text: string | null;
  expands_to: string | null;
  provider: string | null;
  api_mode: string | null;
  model: string | null;
  token_count: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cache_read_tokens: number | null;
  cache_write_tokens: number | null;
  reasoning_tokens: number | null;
  created_at: number;
}

/**
 * A session's active leaf (SQL over `sessions`): while the session follows its newest node
 * (migration 0004), active_leaf_id in the row is not kept up to date.
 */
export const ACTIVE_LEAF_SQL =
  "CASE WHEN sessions.leaf_follows_newest = 1 THEN (SELECT n.id FROM nodes n WHERE n.session_id = sessions.id " +
  "ORDER BY n.seq DESC LIMIT 1) ELSE sessions.active_leaf_id END";

/** The session columns every read selects, the active leaf computed by ACTIVE_LEAF_SQL. */
export const SESSION_COLUMNS =
  "id, title, source, cwd, parent_session_id, system_prompt, model, provider, started_at, ended_at, end_reason, " +
  `${ACTIVE_LEAF_SQL} AS active_leaf_id, api_calls, input_tokens, output_tokens, cache_read_tokens, ` +
  "cache_write_tokens, reasoning_tokens, cost_usd";

/** The node columns every read selects (search_text is left out: it is derived). */
export const NODE_COLUMNS =
  "seq, id, session_id, parent_id, kind, role, payload, body_text, expands_to, provider, api_mode, model, " +
  "token_count, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, created_at";

export function toSessionRow(r: SessionDbRow): SessionRow {
  return {
    id: r.id,
    title: r.title,
    source: r.source,
    cwd: r.cwd,
    parentSessionId: r.parent_session_id,
    systemPrompt: r.system_prompt,
    model: r.model,
    provider: r.provider,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    endReason: r.end_reason,
    activeLeafId: r.active_leaf_id,
    apiCalls: r.api_calls,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
    cacheReadTokens: r.cache_read_tokens,
    cacheWriteTokens: r.cache_write_tokens,
    reasoningTokens: r.reasoning_tokens,
    costUsd: r.cost_usd,
  };
}

export function originOf(
  provider: string | null,
  apiMode: string | null,
  model: string | null,
): Origin | null {
  return provider !== null && apiMode !== null && model !== null
    ? { provider, apiMode: apiMode as ApiMode, model }
    : null;
}

export function usageOf(
  input: number | null,
  output: number | null | undefined,
  cacheRead: number | null | undefined,
  cacheWrite: number | null | undefined,
  reasoning: number | null | undefined,
): Usage | null {
  return input !== null
    ? {
        inputTokens: input,
        outputTokens: output ?? 0,
        cacheReadTokens: cacheRead ?? 0,
        cacheWriteTokens: cacheWrite ?? 0,
        reasoningTokens: reasoning ?? 0,
      }
    : null;
}

export function toNodeRow(r: NodeDbRow): NodeRow {
  const origin = originOf(r.provider, r.api_mode, r.model);
  const usage = usageOf(
    r.input_tokens,
    r.output_tokens,
    r.cache_read_tokens,
    r.cache_write_tokens,
    r.reasoning_tokens,
  );
  return {
    id: r.id,
    seq: r.seq,
    sessionId: r.session_id,
    parentId: r.parent_id,
    kind: r.kind,
    role: r.role,
    message: r.payload === null ? null : (JSON.parse(r.payload) as Message),
    text: r.body_text,
    expandsTo: r.expands_to,
    origin,
    tokens: r.token_count,
    usage,
    createdAt: r.created_at,
  };
}
