// Effect receipts (SPEC D4) for a conversation log that is not the store (memory, JSONL): the
// same rules as the store's receipts — begun only against a node this log holds that carries the
// call, a finished one replayed, an unfinished one reported uncertain, never run twice — kept
// beside the log instead of in state.db. `persist` writes each change (the JSONL log's lines).
import { randomUUID } from "node:crypto";
import type { Message } from "@iris/llm";
import type { BeginEffectInput, BeginEffectResult, EffectRow } from "@iris/store";

/** A node of the log, as the receipts need it. */
export interface LogNode {
  sessionId: string;
  message: Message;
}

export class LogReceipts {
  private readonly byOp = new Map<string, EffectRow>();
  private readonly byId = new Map<string, EffectRow>();

  constructor(
    private readonly node: (id: string) => LogNode | undefined,
    private readonly persist: (effect: EffectRow) => void = () => {},
  ) {}

  /** A receipt read back from the log's file (the newest state of each id wins). */
  restore(effect: EffectRow): void {
    this.byId.set(effect.id, effect);
    this.byOp.set(effect.logicalOpId, effect);
  }

  /** The receipt of a logical op, if one was begun (the crash repair reads it). */
  findByOp(logicalOpId: string): EffectRow | undefined {
    return this.byOp.get(logicalOpId);
  }

  async findNode(id: string): Promise<{ message: Message } | undefined> {
    const found = this.node(id);
    return found ? { message: found.message } : undefined;
  }

  async beginEffect(input: BeginEffectInput): Promise<BeginEffectResult> {
    const why = this.anchorProblem(input);
    if (why) throw new Error(`cannot begin effect ${input.logicalOpId}: ${why}`);
    const existing = this.byOp.get(input.logicalOpId);
    if (existing) {
      if (existing.nodeId !== input.nodeId || existing.tool !== input.tool)
        throw new Error(`logical op ${input.logicalOpId} was begun with another anchor; refusing re-entry`);
      if (existing.status === "started") return { kind: "uncertain", effect: existing };
      if (existing.status === "completed" || existing.status === "failed")
        return { kind: "replay", effect: existing };
      return { kind: "resolved", effect: existing };
    }
    const effect: EffectRow = {
      id: randomUUID(),
      sessionId: input.sessionId,
      logicalOpId: input.logicalOpId,
      step: input.step,
      tool: input.tool,
      argsFingerprint: input.argsFingerprint,
      nodeId: input.nodeId,
      callId: input.callId ?? null,
      status: "started",
      result: null,
      error: null,
      evidence: null,
      createdAt: Date.now(),
      finishedAt: null,
    };
    this.save(effect);
    return { kind: "started", effect };
  }

  async completeEffect(id: string, result: unknown): Promise<EffectRow> {
    return this.finish(id, { status: "completed", result });
  }

  async failEffect(id: string, error: string): Promise<EffectRow> {
    return this.finish(id, { status: "failed", error });
  }

  /** Receipts begun and never finished (the process stopped while the tool ran). */
  unfinished(): EffectRow[] {
    return [...this.byId.values()].filter((e) => e.status === "started");
  }

  private finish(id: string, change: Partial<EffectRow>): EffectRow {
    const effect = this.byId.get(id);
    if (!effect) throw new Error(`no receipt ${id}`);
    if (effect.status !== "started") throw new Error(`receipt ${id} is already ${effect.status}`);
    const done = { ...effect, ...change, finishedAt: Date.now() };
    this.save(done);
    return done;
  }

  private save(effect: EffectRow): void {
    this.persist(effect); // first: a receipt the file lacks must not be acted on
    this.restore(effect);
  }

  private anchorProblem(input: BeginEffectInput): string | undefined {
    const node = this.node(input.nodeId);
    if (!node) return `node ${input.nodeId} is not in this conversation`;
    if (node.sessionId !== input.sessionId) return `node ${input.nodeId} belongs to another session`;
    const m = node.message;
    if (m.role !== "assistant") return `node ${input.nodeId} is not an assistant message`;
    const carries = m.parts.some(
      (p) =>
        p.type === "toolCall" &&
        p.name === input.tool &&
        (input.callId === undefined || p.callId === input.callId),
    );
    return carries ? undefined : `node ${input.nodeId} does not carry a ${input.tool} call`;
  }
}
