// How a path read turns SQL values into NodeRows. Every value handed to JavaScript costs, and
// most rows are plain messages (no text, no compaction pointer, no origin or usage): for those
// the kind is "message" and the role is the message's own, and only the other rows carry their
// rarely-set columns, packed in one JSON array.
import type { Message } from "@iris/llm";
import { type NodeKind, type NodeRow, originOf, usageOf } from "./rows.js";

const c = (alias: string, names: string[]) => names.map((n) => `${alias}${n}`).join(", ");

/** SQL: true for a plain message row. `alias` is the table alias with its dot, or "". */
export function plainRow(alias: string): string {
  return (
    `${alias}kind = 'message' AND ${alias}body_text IS NULL AND ${alias}expands_to IS NULL ` +
    `AND ${alias}provider IS NULL AND ${alias}input_tokens IS NULL`
  );
}

/** SQL: the packed columns of a row that is not plain, as a JSON array (see `Packed`). */
export function packedColumns(alias: string): string {
  return `json_array(${c(alias, ["kind", "role", "body_text", "expands_to", "provider", "api_mode", "model"])}, ${c(
    alias,
    ["input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens"],
  )})`;
}

/** [kind, role, body_text, expands_to, provider, api_mode, model, then the five token counts] */
export type Packed = unknown[];

/** The columns of a row-by-row path read (aliased `n`), for `toNodeRowFromPathValues`. */
export const PATH_COLUMNS =
  "n.seq, n.id, n.session_id, n.parent_id, n.created_at, n.token_count, " +
  `CASE WHEN ${plainRow("n.")} THEN NULL ELSE ${packedColumns("n.")} END, n.payload`;

/** Maps a row read in raw mode with PATH_COLUMNS. */
export function toNodeRowFromPathValues(v: unknown[]): NodeRow {
  return toNodeRowFromRun(
    v[1] as string,
    v[0] as number,
    v[2] as string,
    v[3] as string | null,
    v[4] as number,
    v[5] as number | null,
    v[6] === null ? undefined : (JSON.parse(v[6] as string) as Packed),
    v[7] === null ? null : JSON.parse(v[7] as string),
  );
}

/** A NodeRow from a path read's values; `packed` is undefined for a plain row. */
export function toNodeRowFromRun(
  id: string,
  seq: number,
  sessionId: string,
  parentId: string | null,
  createdAt: number,
  tokens: number | null,
  packed: Packed | undefined,
  message: unknown,
): NodeRow {
  const m = message as Message | null;
  if (packed === undefined) {
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
  const x = packed as [NodeKind, Message["role"] | null, string | null, string | null, ...unknown[]];
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
