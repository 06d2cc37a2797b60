// Closes the tool calls a crash left without results (SPEC D4, H3), before the model is called
// again. Only the tail of the active path can be repaired in place (the calls of the last
// assistant message, followed only by tool results): that is where a killed process leaves them.
// Older gaps are the send-time sanitation's job (H6). Nothing is ever re-executed here.
import type { Message, ToolCallPart, ToolResultMessage } from "@iris/llm";
import type { EffectRow, Store } from "@iris/store";
import { findEffectByOp } from "./lookup.js";
import { logicalOpId } from "./op-id.js";
import {
  NOT_EXECUTED_CRASH,
  replayBody,
  resolvedBody,
  toResultMessage,
  uncertainBody,
  uncertainText,
} from "./outcomes.js";

export type RepairOutcome = "uncertain" | "not_executed" | "replayed" | "resolved";

export interface RepairedCall {
  callId: string;
  tool: string;
  outcome: RepairOutcome;
  /** The receipt, when there is one. */
  effectId?: string;
  /** One line for the user. */
  message: string;
}

export async function repairInterruptedCalls(
  store: Store,
  sessionId: string,
): Promise<{ repaired: RepairedCall[] }> {
  return repairTail(
    await store.activePath(sessionId),
    (node, index) => findEffectByOp(store, logicalOpId(sessionId, node.id, index)),
    async (message) => {
      await store.appendNode(sessionId, { kind: "message", message });
    },
  );
}

/** A node of a log's path, as the repair needs it (the store's NodeRow, a JSONL line). */
export interface PathNode {
  id: string;
  message: Message | null;
}

/**
 * The repair on any log: `effectOf` finds the receipt of the call at `index` of `node`, `append`
 * stores one result durably (called in call order, each before the next).
 */
export async function repairTail<N extends PathNode>(
  path: readonly N[],
  effectOf: (node: N, index: number) => Promise<EffectRow | undefined>,
  append: (result: ToolResultMessage) => Promise<void>,
): Promise<{ repaired: RepairedCall[] }> {
  const tail = danglingTail(path);
  if (!tail) return { repaired: [] };
  const repaired: RepairedCall[] = [];
  for (const { call, index } of tail.missing) {
    const { result, entry } = closeCall(call, await effectOf(tail.node, index));
    await append(result);
    repaired.push(entry);
  }
  return { repaired };
}

interface DanglingTail<N> {
  node: N;
  missing: { call: ToolCallPart; index: number }[];
}

/** The last assistant node and its calls without results, if nothing but tool results follow it. */
function danglingTail<N extends PathNode>(path: readonly N[]): DanglingTail<N> | undefined {
  const answered = new Set<string>();
  for (let i = path.length - 1; i >= 0; i--) {
    const m = path[i]?.message;
    if (m?.role === "tool") {
      answered.add(m.callId);
      continue;
    }
    if (m?.role !== "assistant") return undefined;
    const calls = m.parts.filter((p): p is ToolCallPart => p.type === "toolCall");
    const missing = calls
      .map((call, index) => ({ call, index }))
      // A call with an empty id cannot be paired with a result; sanitation drops it (H6).
      .filter(({ call }) => call.callId !== "" && !answered.has(call.callId));
    return missing.length ? { node: path[i] as N, missing } : undefined;
  }
  return undefined;
}

function closeCall(
  call: ToolCallPart,
  effect: EffectRow | undefined,
): { result: ToolResultMessage; entry: RepairedCall } {
  const base = { callId: call.callId, tool: call.name };
  if (!effect) {
    const result: ToolResultMessage = {
      role: "tool",
      callId: call.callId,
      toolName: call.name,
      content: JSON.stringify({ error: `not executed: ${NOT_EXECUTED_CRASH}` }),
      isError: true,
      notExecuted: NOT_EXECUTED_CRASH,
    };
    return {
      result,
      entry: {
        ...base,
        outcome: "not_executed",
        message: `${call.name}: not executed: ${NOT_EXECUTED_CRASH}`,
      },
    };
  }
  const withId = { ...base, effectId: effect.id };
  if (effect.status === "started")
    return {
      result: toResultMessage(call.callId, call.name, uncertainBody(effect)),
      entry: { ...withId, outcome: "uncertain", message: uncertainText(effect) },
    };
  if (effect.status === "completed" || effect.status === "failed")
    return {
      result: toResultMessage(call.callId, call.name, replayBody(effect)),
      entry: {
        ...withId,
        outcome: "replayed",
        message: `${call.name}: finished before the process stopped (receipt ${effect.id}); its stored result was restored`,
      },
    };
  return {
    result: toResultMessage(call.callId, call.name, resolvedBody(effect)),
    entry: {
      ...withId,
      outcome: "resolved",
      message: `${call.name}: receipt ${effect.id} was settled as ${effect.status}; not re-executed`,
    },
  };
}
