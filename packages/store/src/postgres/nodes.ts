// The node tree on Postgres (SPEC D3), with the SQLite engine's rules (nodes.ts): an append names
// its parent or continues the active leaf, read under the session row's lock so two writers of
// one session queue instead of both continuing the same leaf; paths are one recursive query.
import { StoreError } from "../errors.js";
import { checkedNode, type NodeInput } from "../nodes.js";
import { type NodeDbRow, type NodeKind, type NodeRow, toNodeRow } from "../rows.js";
import { searchTextOf } from "../search-text.js";
import { requireOneOf } from "../validate.js";
import type { PoolClient } from "./pool.js";
import type { Db } from "./sessions.js";

export const NODE_COLUMNS =
  "seq, id, session_id, parent_id, kind, role, payload, body_text, expands_to, provider, api_mode, model, " +
  "token_count, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, created_at";

const KINDS: readonly NodeKind[] = ["message", "compaction", "note"];
/** A guard for corrupted parent pointers: no real conversation is this deep. */
const MAX_DEPTH = 10_000_000;

const noNode = (id: string) => new StoreError("not_found", `no node with id ${JSON.stringify(id)}`);

export async function findNode(db: Db, id: string): Promise<NodeRow | undefined> {
  const { rows } = await db.query<NodeDbRow>(`SELECT ${NODE_COLUMNS} FROM nodes WHERE id = $1`, [id]);
  return rows[0] ? toNodeRow(rows[0]) : undefined;
}

export async function getNode(db: Db, id: string): Promise<NodeRow> {
  const row = await findNode(db, id);
  if (!row) throw noNode(id);
  return row;
}

/** The path from the root to `leafId`, root first. */
export async function pathToRoot(db: Db, leafId: string): Promise<NodeRow[]> {
  const { rows } = await db.query<NodeDbRow & { depth: number }>(
    `WITH RECURSIVE path(seq, parent_id, depth) AS (
       SELECT seq, parent_id, 0 FROM nodes WHERE id = $1
       UNION ALL
       SELECT n.seq, n.parent_id, path.depth + 1 FROM path JOIN nodes n ON n.id = path.parent_id
       WHERE path.depth < ${MAX_DEPTH}
     )
     SELECT ${NODE_COLUMNS.split(", ")
       .map((c) => `n.${c}`)
       .join(", ")} FROM path JOIN nodes n ON n.seq = path.seq ORDER BY path.depth DESC`,
    [leafId],
  );
  if (rows.length === 0) throw noNode(leafId);
  return rows.map(toNodeRow);
}

export async function activeLeafId(db: Db, sessionId: string): Promise<string | null> {
  const { rows } = await db.query<{ leaf: string | null }>(
    "SELECT active_leaf_id AS leaf FROM sessions WHERE id = $1",
    [sessionId],
  );
  const row = rows[0];
  if (!row) throw new StoreError("not_found", `no session with id ${JSON.stringify(sessionId)}`);
  return row.leaf;
}

export async function assertInSession(db: Db, nodeId: string, sessionId: string): Promise<void> {
  const { rows } = await db.query<{ session_id: string }>("SELECT session_id FROM nodes WHERE id = $1", [
    nodeId,
  ]);
  const row = rows[0];
  if (!row) throw noNode(nodeId);
  if (row.session_id !== sessionId)
    throw new StoreError(
      "invalid_input",
      `node ${nodeId} belongs to session ${row.session_id}, not ${JSON.stringify(sessionId)}`,
    );
}

export async function setActiveLeaf(db: Db, sessionId: string, nodeId: string | null): Promise<void> {
  if (nodeId !== null) await assertInSession(db, nodeId, sessionId);
  const { rowCount } = await db.query("UPDATE sessions SET active_leaf_id = $2 WHERE id = $1", [
    sessionId,
    nodeId,
  ]);
  if (!rowCount) throw new StoreError("not_found", `no session with id ${JSON.stringify(sessionId)}`);
}

/** Appends inside the caller's transaction; each omitted parent is the leaf left by the previous. */
export async function appendNodes(
  db: PoolClient,
  sessionId: string,
  inputs: readonly NodeInput[],
): Promise<NodeRow[]> {
  const { rows } = await db.query<{ leaf: string | null }>(
    "SELECT active_leaf_id AS leaf FROM sessions WHERE id = $1 FOR UPDATE",
    [sessionId],
  );
  if (!rows[0]) throw new StoreError("not_found", `no session with id ${JSON.stringify(sessionId)}`);
  const before = rows[0].leaf;
  let leaf = before;
  const now = Date.now();
  const out: NodeRow[] = [];
  const inBatch = new Set<string>();
  for (const input of inputs) {
    const kind = requireOneOf(input.kind, KINDS, "node kind");
    const parentId = parentFor(input, kind, leaf);
    if (parentId !== null && !inBatch.has(parentId)) await assertInSession(db, parentId, sessionId);
    const row = await insertOne(db, sessionId, input, kind, parentId, now);
    inBatch.add(row.id);
    if (input.setActive !== false) leaf = row.id;
    out.push(row);
  }
  if (leaf !== before)
    await db.query("UPDATE sessions SET active_leaf_id = $2 WHERE id = $1", [sessionId, leaf]);
  return out;
}

function parentFor(input: NodeInput, kind: NodeKind, leaf: string | null): string | null {
  if (kind === "compaction") {
    if (input.parentId)
      throw new StoreError("invalid_input", "a compaction node has no parent (it starts a new root)");
    return null;
  }
  return input.parentId === undefined ? leaf : input.parentId;
}

async function insertOne(
  db: PoolClient,
  sessionId: string,
  input: NodeInput,
  kind: NodeKind,
  parentId: string | null,
  now: number,
): Promise<NodeRow> {
  const { message, role, origin, usage, id } = checkedNode(input, kind);
  if (input.expandsTo !== undefined && !(await findNode(db, input.expandsTo)))
    throw new StoreError("not_found", `expandsTo points at no node (${JSON.stringify(input.expandsTo)})`);
  const { rows } = await db.query<NodeDbRow>(
    "INSERT INTO nodes (id, session_id, parent_id, kind, role, payload, body_text, search_text, expands_to, " +
      "provider, api_mode, model, token_count, input_tokens, output_tokens, cache_read_tokens, " +
      "cache_write_tokens, reasoning_tokens, created_at) " +
      "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) " +
      `RETURNING ${NODE_COLUMNS}`,
    [
      id,
      sessionId,
      parentId,
      kind,
      role,
      message ? JSON.stringify(message) : null,
      input.text ?? null,
      // Postgres text holds no NUL character: it cannot be searched for anyway.
      searchTextOf(message, input.text).replaceAll("\u0000", ""),
      input.expandsTo ?? null,
      origin?.provider ?? null,
      origin?.apiMode ?? null,
      origin?.model ?? null,
      input.tokens ?? null,
      usage?.inputTokens ?? null,
      usage?.outputTokens ?? null,
      usage?.cacheReadTokens ?? null,
      usage?.cacheWriteTokens ?? null,
      usage?.reasoningTokens ?? null,
      now,
    ],
  );
  return toNodeRow(rows[0] as NodeDbRow);
}

/** Every leaf of the session's tree (the tip of each branch), oldest first. */
export async function listLeaves(db: Db, sessionId: string): Promise<NodeRow[]> {
  await activeLeafId(db, sessionId);
  const { rows } = await db.query<NodeDbRow>(
    `SELECT ${NODE_COLUMNS} FROM nodes n WHERE n.session_id = $1 AND NOT EXISTS ` +
      "(SELECT 1 FROM nodes c WHERE c.parent_id = n.id AND c.session_id = n.session_id) ORDER BY n.seq",
    [sessionId],
  );
  return rows.map(toNodeRow);
}

/** The path to `leafId` after `afterSeq`, root first, at most `limit` (undefined: not in the session). */
export async function branchPage(
  db: Db,
  sessionId: string,
  leafId: string,
  afterSeq: number,
  limit: number,
): Promise<NodeRow[] | undefined> {
  const leaf = await findNode(db, leafId);
  if (!leaf || leaf.sessionId !== sessionId) return undefined;
  const path = await pathToRoot(db, leafId);
  return path.filter((n) => n.seq > afterSeq).slice(0, limit);
}
