// What a receipt is and the rules every engine applies to it (SPEC D4): the rows, whether a
// node is a valid anchor, and what a second begin of the same logical op means.
import type { FileBefore } from "./effect-snapshots.js";
import type { NodeRow } from "./rows.js";

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

export interface EffectDbRow {
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

/** Why `node` cannot anchor a receipt of `tool` (null: it can): stored, this session's, carrying the call. */
export function anchorProblem(
  node: NodeRow | undefined,
  input: BeginEffectInput,
  tool: string,
): string | null {
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

/** Whether a stored receipt was begun with the same anchor (else a re-entry is refused). */
export function sameAnchor(
  existing: EffectDbRow,
  input: BeginEffectInput,
  tool: string,
  fingerprint: string,
): boolean {
  return (
    existing.session_id === input.sessionId &&
    existing.node_id === input.nodeId &&
    existing.step === input.step &&
    existing.tool === tool &&
    existing.args_fingerprint === fingerprint
  );
}

/** What a second begin of an op finds: unfinished, finished (replayed) or settled by a person. */
export function effectKind(status: EffectStatus): Exclude<BeginEffectResult["kind"], "started"> {
  if (status === "started") return "uncertain";
  if (status === "completed" || status === "failed") return "replay";
  return "resolved";
}

export function toEffectRow(r: EffectDbRow): EffectRow {
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
