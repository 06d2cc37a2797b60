// Tool-effect receipts (SPEC D4). A receipt is written only after the assistant node carrying
// the call is stored; on restart a completed receipt replays its result and an incomplete one
// is reported as uncertain, never re-run. This is a duplicate-suppression boundary, not
// exactly-once delivery to the outside world.

import type { Database, Statement, Transaction } from "./driver.js";
import { EffectSnapshots, type FileBefore } from "./effect-snapshots.js";
import { StoreError } from "./errors.js";
import { newId } from "./ids.js";
import type { NodeRepo } from "./nodes.js";
import { requireOneOf, requireString } from "./validate.js";

export type EffectStatus = "started" | "completed" | "failed" | "applied" | "not_applied";

export interface BeginEffectInput {
  sessionId: string;
  /** Our id for the operation, independent of the provider's call id. */
  logicalOpId: string;
  /** The sampling step within the turn. */
  step: number;
  tool: string;
  argsFingerprint: string;
  /** The stored assistant node that carries the call (the checkpoint anchor). */
  nodeId: string;
  /** The canonical call id inside that node, when the tool is called more than once. */
  callId?: string;
  /** The files the call is about to write, as they are now: kept with a new receipt (`/rewind`). */
  filesBefore?: readonly FileBefore[];
}

export interface EffectRow {
  id: string;
  sessionId: string;
  logicalOpId: string;
  step: number;
  tool: string;
  argsFingerprint: string;
  nodeId: string;
  callId: string | null;
  status: EffectStatus;
  result: unknown;
  error: string | null;
  evidence: string | null;
  createdAt: number;
  finishedAt: number | null;
}

/**
 * What `beginEffect` decided: `started` = run the tool now; `replay` = it already completed or
 * failed, use the stored outcome; `uncertain` = it started but never finished
 * (effect_outcome_uncertain), do not run it again; `resolved` = a person settled it.
 */
export type BeginEffectResult =
  | { kind: "started"; effect: EffectRow }
  | { kind: "replay"; effect: EffectRow }
  | { kind: "uncertain"; effect: EffectRow }
  | { kind: "resolved"; effect: EffectRow };

interface EffectDbRow {
  id: string;
  session_id: string;
  logical_op_id: string;
  step: number;
  tool: string;
  args_fingerprint: string;
  node_id: string;
  call_id: string | null;
  status: EffectStatus;
  result: string | null;
  error: string | null;
  evidence: string | null;
  created_at: number;
  finished_at: number | null;
}

export class EffectRepo {
  private readonly insert: Statement;
  private readonly byId: Statement<EffectDbRow>;
  private readonly byOp: Statement<EffectDbRow>;
  private readonly finish: Statement;
  private readonly unresolved: Statement<EffectDbRow>;
  private readonly beginTx: Transaction<(input: BeginEffectInput) => BeginEffectResult>;
  readonly snapshots: EffectSnapshots;

  constructor(
    private readonly db: Database,
    private readonly nodes: NodeRepo,
  ) {
    this.insert = db.prepare(
      "INSERT INTO effects (id, session_id, logical_op_id, step, tool, args_fingerprint, node_id, call_id, " +
        "status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'started', ?)",
    );
    this.byId = db.prepare("SELECT * FROM effects WHERE id = ?");
    this.byOp = db.prepare("SELECT * FROM effects WHERE logical_op_id = ?");
    this.finish = db.prepare(
      "UPDATE effects SET status = ?, result = ?, error = ?, evidence = ?, finished_at = ? " +
        "WHERE id = ? AND status = 'started'",
    );
    this.unresolved = db.prepare("SELECT * FROM effects WHERE status = 'started' ORDER BY created_at, rowid");
    this.beginTx = db.transaction((input: BeginEffectInput) => this.beginInTx(input));
    this.snapshots = new EffectSnapshots(db);
  }

  /**
   * Commits with synchronous=FULL: the WAL is synced, so the receipt and the anchor node
   * written before it survive a power loss too, not only a crash of the process.
   */
  begin(input: BeginEffectInput): BeginEffectResult {
    // SQLite refuses to change the level inside a transaction; an enclosing one decides then.
    if (this.db.inTransaction) return this.beginTx.immediate(input);
    this.db.pragma("synchronous = FULL");
    try {
      return this.beginTx.immediate(input);
    } finally {
      this.db.pragma("synchronous = NORMAL");
    }
  }

  /** The receipt of a logical operation, if one was begun. */
  findByOp(logicalOpId: string): EffectRow | undefined {
    const row = this.byOp.get(logicalOpId);
    return row ? toEffectRow(row) : undefined;
  }

  /** By full id, or by a unique prefix of at least 4 characters (what people type). */
  findByIdOrPrefix(idOrPrefix: string): EffectRow | undefined {
    const exact = this.byId.get(idOrPrefix);
    if (exact) return toEffectRow(exact);
    if (idOrPrefix.length < 4) return undefined;
    const hits = this.db
      .prepare<EffectDbRow>("SELECT * FROM effects WHERE substr(id, 1, ?) = ? LIMIT 2")
      .all(idOrPrefix.length, idOrPrefix);
    return hits.length === 1 && hits[0] ? toEffectRow(hits[0]) : undefined;
  }

  /** The newest `limit` receipts, oldest first. */
  listRecent(limit: number): EffectRow[] {
    return this.db
      .prepare<EffectDbRow>("SELECT * FROM effects ORDER BY created_at DESC, rowid DESC LIMIT ?")
      .all(limit)
      .map(toEffectRow)
      .reverse();
  }

  get(id: string): EffectRow {
    const row = this.byId.get(id);
    if (!row) throw new StoreError("not_found", `no effect with id ${JSON.stringify(id)}`);
    return toEffectRow(row);
  }

  complete(id: string, result: unknown): EffectRow {
    return this.settle(id, "completed", JSON.stringify(result ?? null), null, null);
  }

  fail(id: string, error: string): EffectRow {
    return this.settle(id, "failed", null, requireString(error, "effect error"), null);
  }

  resolve(id: string, outcome: "applied" | "not_applied", evidence: string): EffectRow {
    const status = requireOneOf(outcome, ["applied", "not_applied"] as const, "resolution");
    return this.settle(id, status, null, null, requireString(evidence, "resolution evidence"));
  }

  listUnresolved(sessionId?: string): EffectRow[] {
    const rows = this.unresolved.all().map(toEffectRow);
    return sessionId === undefined ? rows : rows.filter((r) => r.sessionId === sessionId);
  }

  private settle(
    id: string,
    status: EffectStatus,
    result: string | null,
    error: string | null,
    evidence: string | null,
  ): EffectRow {
    const changes = this.finish.run(status, result, error, evidence, Date.now(), id).changes;
    const row = this.get(id);
    if (changes === 0) {
      throw new StoreError(
        "effect_state",
        `effect ${id} is already ${row.status}; only a started effect can become ${status}`,
      );
    }
    return row;
  }

  private beginInTx(input: BeginEffectInput): BeginEffectResult {
    const opId = requireString(input.logicalOpId, "logicalOpId");
    const tool = requireString(input.tool, "tool");
    const fingerprint = requireString(input.argsFingerprint, "argsFingerprint");
    if (!Number.isInteger(input.step) || input.step < 0) {
      throw new StoreError("invalid_input", `step must be an integer >= 0, got ${String(input.step)}`);
    }
    this.assertCheckpointed(input, tool);
    const existing = this.byOp.get(opId);
    if (existing) {
      const sameAnchor =
        existing.session_id === input.sessionId &&
        existing.node_id === input.nodeId &&
        existing.step === input.step &&
        existing.tool === tool &&
        existing.args_fingerprint === fingerprint;
      if (!sameAnchor) {
        throw new StoreError(
          "effect_conflict",
          `logical op ${opId} was begun with another anchor (node ${existing.node_id}, step ${existing.step}, ` +
            `tool ${existing.tool}); refusing re-entry`,
        );
      }
      const effect = toEffectRow(existing);
      if (effect.status === "started") return { kind: "uncertain", effect };
      if (effect.status === "completed" || effect.status === "failed") return { kind: "replay", effect };
      return { kind: "resolved", effect };
    }
    const id = newId();
    this.insert.run(
      id,
      input.sessionId,
      opId,
      input.step,
      tool,
      fingerprint,
      input.nodeId,
      input.callId ?? null,
      Date.now(),
    );
    if (input.filesBefore?.length) this.snapshots.add(id, input.filesBefore);
    return { kind: "started", effect: this.get(id) };
  }

  /** Refuses unless the anchor node is stored in this session and carries a call of this tool. */
  private assertCheckpointed(input: BeginEffectInput, tool: string): void {
    const why = this.anchorProblem(input, tool);
    if (why !== null) {
      throw new StoreError("effect_not_checkpointed", `cannot begin effect ${input.logicalOpId}: ${why}`);
    }
  }

  private anchorProblem(input: BeginEffectInput, tool: string): string | null {
    const node = this.nodes.find(requireString(input.nodeId, "nodeId"));
    if (!node) return `node ${input.nodeId} is not stored`;
    if (node.sessionId !== input.sessionId) return `node ${input.nodeId} belongs to another session`;
    const message = node.message;
    if (message?.role !== "assistant") return `node ${input.nodeId} is not an assistant message`;
    const carries = message.parts.some(
      (p) =>
        p.type === "toolCall" && p.name === tool && (input.callId === undefined || p.callId === input.callId),
    );
    if (carries) return null;
    const which = input.callId === undefined ? `a ${tool} call` : `call ${input.callId} of ${tool}`;
    return `node ${input.nodeId} does not carry ${which}`;
  }
}

function toEffectRow(r: EffectDbRow): EffectRow {
  return {
    id: r.id,
    sessionId: r.session_id,
    logicalOpId: r.logical_op_id,
    step: r.step,
    tool: r.tool,
    argsFingerprint: r.args_fingerprint,
    nodeId: r.node_id,
    callId: r.call_id,
    status: r.status,
    result: r.result === null ? null : (JSON.parse(r.result) as unknown),
    error: r.error,
    evidence: r.evidence,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
  };
}
