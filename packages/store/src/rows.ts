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

/**
 * The columns a path read selects (aliased `n`), for `toNodeRowFromPathValues`. A long path is
 * read in raw (array) mode, and every value handed to JavaScript costs, so origin and usage,
 * which only assistant nodes have, come packed in one JSON array that is NULL for other nodes.
 */
export const PATH_COLUMNS =
  "n.seq, n.id, n.session_id, n.parent_id, n.kind, n.role, n.payload, n.body_text, n.expands_to, " +
  "n.token_count, n.created_at, CASE WHEN n.provider IS NULL AND n.input_tokens IS NULL THEN NULL " +
  "ELSE json_array(n.provider, n.api_mode, n.model, n.input_tokens, n.output_tokens, " +
  "n.cache_read_tokens, n.cache_write_tokens, n.reasoning_tokens) END";

type Packed = [string | null, string | null, string | null, ...(number | null)[]];

/** Maps a row read in raw mode with PATH_COLUMNS, straight to a NodeRow. */
export function toNodeRowFromPathValues(v: unknown[]): NodeRow {
  const packed = typeof v[11] === "string" ? (JSON.parse(v[11]) as Packed) : null;
  const payload = v[6] as string | null;
  return {
    id: v[1] as string,
    seq: v[0] as number,
    sessionId: v[2] as string,
    parentId: v[3] as string | null,
    kind: v[4] as NodeKind,
    role: v[5] as Message["role"] | null,
    message: payload === null ? null : (JSON.parse(payload) as Message),
    text: v[7] as string | null,
    expandsTo: v[8] as string | null,
    origin: packed ? originOf(packed[0], packed[1], packed[2]) : null,
    tokens: v[9] as number | null,
    usage: packed ? usageOf(packed[3] ?? null, packed[4], packed[5], packed[6], packed[7]) : null,
    createdAt: v[10] as number,
  };
}

function originOf(provider: string | null, apiMode: string | null, model: string | null): Origin | null {
  return provider !== null && apiMode !== null && model !== null
    ? { provider, apiMode: apiMode as ApiMode, model }
    : null;
}

function usageOf(
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
