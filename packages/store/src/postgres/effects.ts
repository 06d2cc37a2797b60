// Tool-effect receipts on Postgres (SPEC D4), with the SQLite engine's rules (effects.ts): begun
// only against a stored assistant node of the session that carries the call, one receipt per
// logical op (a second begin with the same anchor replays or reports uncertain), settled once.

import {
  anchorProblem,
  type BeginEffectInput,
  type BeginEffectResult,
  type EffectDbRow,
  type EffectRow,
  type EffectStatus,
  effectKind,
  sameAnchor,
  toEffectRow,
} from "../effect-rules.js";
import type { EffectSnapshotRow } from "../effect-snapshots.js";
import { StoreError } from "../errors.js";
import { newId } from "../ids.js";
import { requireOneOf, requireString } from "../validate.js";
import { findNode } from "./nodes.js";
import type { PoolClient } from "./pool.js";
import type { Db } from "./sessions.js";

const COLUMNS =
  "id, session_id, logical_op_id, step, tool, args_fingerprint, node_id, call_id, status, result, error, " +
  "evidence, created_at, finished_at";

export async function findEffectByOp(db: Db, opId: string): Promise<EffectRow | undefined> {
  const { rows } = await db.query<EffectDbRow>(`SELECT ${COLUMNS} FROM effects WHERE logical_op_id = $1`, [
    opId,
  ]);
  return rows[0] ? toEffectRow(rows[0]) : undefined;
}

export async function findEffectById(db: Db, id: string): Promise<EffectRow | undefined> {
  const { rows } = await db.query<EffectDbRow>(`SELECT ${COLUMNS} FROM effects WHERE id = $1`, [id]);
  return rows[0] ? toEffectRow(rows[0]) : undefined;
}

export async function getEffect(db: Db, id: string): Promise<EffectRow> {
  const row = await findEffectById(db, id);
  if (!row) throw new StoreError("not_found", `no effect with id ${JSON.stringify(id)}`);
  return row;
}

/** Begins (or finds) the receipt of a logical op, inside the caller's transaction. */
export async function beginEffect(db: PoolClient, input: BeginEffectInput): Promise<BeginEffectResult> {
  const opId = requireString(input.logicalOpId, "logicalOpId");
  const tool = requireString(input.tool, "tool");
  const fingerprint = requireString(input.argsFingerprint, "argsFingerprint");
  if (!Number.isInteger(input.step) || input.step < 0)
    throw new StoreError("invalid_input", `step must be an integer >= 0, got ${String(input.step)}`);
  const node = await findNode(db, requireString(input.nodeId, "nodeId"));
  const why = anchorProblem(node, input, tool);
  if (why !== null)
    throw new StoreError("effect_not_checkpointed", `cannot begin effect ${input.logicalOpId}: ${why}`);
  const id = newId();
  const { rowCount } = await db.query(
    "INSERT INTO effects (id, session_id, logical_op_id, step, tool, args_fingerprint, node_id, call_id, " +
      "status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'started', $9) " +
      "ON CONFLICT (logical_op_id) DO NOTHING",
    [
      id,
      input.sessionId,
      opId,
      input.step,
      tool,
      fingerprint,
      input.nodeId,
      input.callId ?? null,
      Date.now(),
    ],
  );
  if (rowCount) {
    for (const f of input.filesBefore ?? [])
      await db.query(
        "INSERT INTO effect_snapshots (effect_id, path, skipped, content) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        [id, f.path, f.skipped ?? null, f.skipped ? null : f.content],
      );
    return { kind: "started", effect: await getEffect(db, id) };
  }
  const { rows } = await db.query<EffectDbRow>(`SELECT ${COLUMNS} FROM effects WHERE logical_op_id = $1`, [
    opId,
  ]);
  const existing = rows[0] as EffectDbRow;
  if (!sameAnchor(existing, input, tool, fingerprint))
    throw new StoreError(
      "effect_conflict",
      `logical op ${opId} was begun with another anchor (node ${existing.node_id}, step ${existing.step}, ` +
        `tool ${existing.tool}); refusing re-entry`,
    );
  const effect = toEffectRow(existing);
  return { kind: effectKind(effect.status), effect };
}

export async function settleEffect(
  db: Db,
  id: string,
  status: EffectStatus,
  fields: { result?: unknown; error?: string; evidence?: string },
): Promise<EffectRow> {
  const { rowCount } = await db.query(
    "UPDATE effects SET status = $2, result = $3, error = $4, evidence = $5, finished_at = $6 " +
      "WHERE id = $1 AND status = 'started'",
    [
      id,
      status,
      status === "completed" ? JSON.stringify(fields.result ?? null) : null,
      status === "failed" ? requireString(fields.error, "effect error") : null,
      status === "applied" || status === "not_applied"
        ? requireString(fields.evidence, "resolution evidence")
        : null,
      Date.now(),
    ],
  );
  const row = await getEffect(db, id);
  if (!rowCount)
    throw new StoreError(
      "effect_state",
      `effect ${id} is already ${row.status}; only a started effect can become ${status}`,
    );
  return row;
}

export function resolutionOf(outcome: string): "applied" | "not_applied" {
  return requireOneOf(outcome, ["applied", "not_applied"] as const, "resolution");
}

/** By full id, or by a unique prefix of at least 4 characters. */
export async function findEffectByIdOrPrefix(db: Db, idOrPrefix: string): Promise<EffectRow | undefined> {
  const exact = await findEffectById(db, idOrPrefix);
  if (exact || idOrPrefix.length < 4) return exact;
  const { rows } = await db.query<EffectDbRow>(
    `SELECT ${COLUMNS} FROM effects WHERE left(id, $1) = $2 LIMIT 2`,
    [idOrPrefix.length, idOrPrefix],
  );
  return rows.length === 1 && rows[0] ? toEffectRow(rows[0]) : undefined;
}

/** The newest `limit` receipts, oldest first. */
export async function listEffects(db: Db, limit: number): Promise<EffectRow[]> {
  const { rows } = await db.query<EffectDbRow>(
    `SELECT ${COLUMNS} FROM effects ORDER BY created_at DESC, seq DESC LIMIT $1`,
    [limit],
  );
  return rows.map(toEffectRow).reverse();
}

export async function listUnresolved(db: Db, sessionId?: string): Promise<EffectRow[]> {
  const { rows } = await db.query<EffectDbRow>(
    `SELECT ${COLUMNS} FROM effects WHERE status = 'started' AND ($1::text IS NULL OR session_id = $1) ` +
      "ORDER BY created_at, seq",
    [sessionId ?? null],
  );
  return rows.map(toEffectRow);
}

/** The files receipted calls anchored on `nodeIds` wrote, as they were before (newest call first). */
export async function fileSnapshots(db: Db, nodeIds: readonly string[]): Promise<EffectSnapshotRow[]> {
  if (!nodeIds.length) return [];
  const { rows } = await db.query<{
    effect_id: string;
    path: string;
    skipped: string | null;
    content: Buffer | null;
    node_id: string;
    tool: string;
  }>(
    "SELECT s.effect_id, s.path, s.skipped, s.content, e.node_id, e.tool FROM effect_snapshots s " +
      "JOIN effects e ON e.id = s.effect_id WHERE e.node_id = ANY($1::text[]) ORDER BY e.created_at DESC, e.seq DESC",
    [nodeIds],
  );
  return rows.map((r) => ({
    effectId: r.effect_id,
    nodeId: r.node_id,
    tool: r.tool,
    path: r.path,
    content: r.content,
    ...(r.skipped !== null ? { skipped: r.skipped } : {}),
  }));
}
