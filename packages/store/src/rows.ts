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
 * The session columns every read selects. The active leaf is computed: while the session
 * follows its newest node (migration 0004), active_leaf_id in the row is not kept up to date.
 */
export const SESSION_COLUMNS =
  "id, title, source, cwd, parent_session_id, system_prompt, model, provider, started_at, ended_at, end_reason, " +
  "CASE WHEN leaf_follows_newest = 1 THEN (SELECT n.id FROM nodes n WHERE n.session_id = sessions.id " +
  "ORDER BY n.seq DESC LIMIT 1) ELSE active_leaf_id END AS active_leaf_id, api_calls, input_tokens, " +
  "output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cost_usd";

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
 * A path read hands every value to JavaScript, and each costs, so the columns that most rows
 * leave empty come packed in one JSON array (`extras`), and a plain message row (no text, no
 * compaction pointer, no origin or usage) has 0 there: its kind is "message", its role its
 * message's. The SQL expression for one row; `alias` is the table alias with its dot, or "".
 */
export function packedRowFields(alias: string): string {
  const c = (name: string) => `${alias}${name}`;
  return (
    `CASE WHEN ${c("kind")} = 'message' AND ${c("body_text")} IS NULL AND ${c("expands_to")} IS NULL ` +
    `AND ${c("provider")} IS NULL AND ${c("input_tokens")} IS NULL THEN '0' ELSE json_array(` +
    ["kind", "role", "body_text", "expands_to", "provider", "api_mode", "model", "input_tokens"]
      .concat(["output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens"])
      .map(c)
      .join(", ") +
    ") END"
  );
}

/** The columns of a row-by-row path read (aliased `n`), for `toNodeRowFromPathValues`. */
export const PATH_COLUMNS = `n.seq, n.id, n.session_id, n.parent_id, n.created_at, n.token_count, ${packedRowFields("n.")}, n.payload`;

/** Maps a row read in raw mode with PATH_COLUMNS. */
export function toNodeRowFromPathValues(v: unknown[]): NodeRow {
  return toNodeRowFromRun(
    v[1] as string,
    v[0] as number,
    v[2] as string,
    v[3] as string | null,
    v[4] as number,
    v[5] as number | null,
    JSON.parse(v[6] as string) as Packed,
    v[7] === null ? null : JSON.parse(v[7] as string),
  );
}

/** [kind, role, body_text, expands_to, provider, api_mode, model, then the five token counts] */
type Packed = 0 | unknown[];

/** A NodeRow from a path read's values, `extras` packed by packedRowFields, the message parsed. */
export function toNodeRowFromRun(
  id: string,
  seq: number,
  sessionId: string,
  parentId: string | null,
  createdAt: number,
  tokens: number | null,
  extras: Packed,
  message: unknown,
): NodeRow {
  const m = message as Message | null;
  if (extras === 0) {
    return {
      id,
      seq,
      sessionId,
      parentId,
      kind: "message",
      role: m?.role ?? null,
      message: m,
      text: null,
      expandsTo: null,
      origin: null,
      tokens,
      usage: null,
      createdAt,
    };
  }
  const x = extras as [NodeKind, Message["role"] | null, string | null, string | null, ...unknown[]];
  const n = (i: number) => (x[i] ?? null) as number | null;
  return {
    id,
    seq,
    sessionId,
    parentId,
    kind: x[0],
    role: x[1],
    message: m,
    text: x[2],
    expandsTo: x[3],
    origin: originOf(x[4] as string | null, x[5] as string | null, x[6] as string | null),
    tokens,
    usage: usageOf(n(7), n(8), n(9), n(10), n(11)),
    createdAt,
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
