// A persisted, append-only repair of a stored conversation (SPEC U1, H3): old nodes are never
// rewritten. The repaired history branches off below the last node that needs no change; every
// call that lost its result gets a result saying it was not executed (or, where a side-effect
// receipt was begun and never finished, that its outcome is uncertain); results without their
// call, empty messages and dangling reasoning are left out of the new branch.
import {
  type AssistantMessage,
  type AssistantPart,
  type Message,
  sanitizeHistory,
  type ToolCallPart,
  type ToolResultMessage,
} from "@iris/llm";

/** One message of the active path with the node it is stored in. */
export interface StoredMessage {
  nodeId: string;
  message: Message;
}

/** The unresolved receipt of a call, if any: its result must not claim "not executed". */
export type UncertainEffect = (nodeId: string, call: ToolCallPart) => string | undefined;

export interface RepairPlan {
  /** The node the repaired branch continues from; null = a new root. */
  parentId: string | null;
  /** Messages appended below `parentId`, in order. */
  append: Message[];
  /** What the repair does, for the report. */
  actions: string[];
}

export const REPAIR_NOTE = "its result was never stored (repaired by iris doctor)";

function missingResult(nodeId: string, call: ToolCallPart, uncertain: UncertainEffect): ToolResultMessage {
  const effect = uncertain(nodeId, call);
  if (effect)
    return {
      role: "tool",
      callId: call.callId,
      toolName: call.name,
      content: JSON.stringify({
        error: `effect_outcome_uncertain: ${call.name} started but its outcome was never recorded; do not assume it ran or not (iris effects resolve ${effect})`,
      }),
      isError: true,
    };
  return {
    role: "tool",
    callId: call.callId,
    toolName: call.name,
    content: JSON.stringify({ error: `not executed: ${REPAIR_NOTE}` }),
    isError: true,
    notExecuted: REPAIR_NOTE,
  };
}

const substantive = (p: AssistantPart) => p.type === "toolCall" || (p.type === "text" && p.text !== "");

function isEmptyUser(m: Message): boolean {
  if (m.role !== "user") return false;
  if (typeof m.content === "string") return m.content === "";
  return !m.content.some((p) => p.type === "image" || p.text !== "");
}

/** An assistant message with the results that directly follow it, made whole. */
function fixRound(
  entry: StoredMessage & { message: AssistantMessage },
  results: StoredMessage[],
  uncertain: UncertainEffect,
  actions: string[],
): Message[] {
  const m = entry.message;
  const calls = new Map<string, ToolCallPart>();
  let parts = m.parts.filter((p) => {
    if (p.type !== "toolCall") return true;
    if (p.callId === "" || calls.has(p.callId)) {
      actions.push(`drop tool call ${p.name} with ${p.callId === "" ? "an empty" : "a repeated"} id`);
      return false;
    }
    calls.set(p.callId, p);
    return true;
  });
  let last = parts.length;
  while (last > 0 && !substantive(parts[last - 1]!)) last--;
  if (parts.slice(last).some((p) => p.type === "reasoning")) {
    actions.push("drop reasoning with nothing after it");
    parts = parts.slice(0, last);
  }
  if (!parts.some(substantive)) {
    actions.push("drop an empty assistant message");
    return [];
  }
  const kept: ToolResultMessage[] = [];
  for (const { message: r } of results) {
    if (r.role !== "tool") continue;
    if (calls.has(r.callId) && !kept.some((k) => k.callId === r.callId)) kept.push(r);
    else actions.push(`drop tool result ${r.callId || "(empty id)"} (${r.toolName}) without its call`);
  }
  const added = [...calls.values()]
    .filter((c) => !kept.some((k) => k.callId === c.callId))
    .map((c) => {
      const result = missingResult(entry.nodeId, c, uncertain);
      actions.push(
        `add a result for ${c.name} call ${c.callId}: ${result.notExecuted ? "not executed" : "outcome uncertain"}`,
      );
      return result;
    });
  const assistant = parts.length === m.parts.length ? m : { ...m, parts };
  return [assistant, ...kept, ...added];
}

/** The whole path made valid, message by message (unchanged messages keep their identity). */
function repairedMessages(
  path: readonly StoredMessage[],
  uncertain: UncertainEffect,
  actions: string[],
): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < path.length; i++) {
    const entry = path[i]!;
    const m = entry.message;
    if (m.role === "tool") {
      actions.push(`drop tool result ${m.callId || "(empty id)"} (${m.toolName}) without its call`);
      continue;
    }
    if (m.role === "user") {
      if (isEmptyUser(m)) actions.push("drop an empty user message");
      else out.push(m);
      continue;
    }
    let j = i + 1;
    while (j < path.length && path[j]!.message.role === "tool") j++;
    out.push(...fixRound({ ...entry, message: m }, path.slice(i + 1, j), uncertain, actions));
    i = j - 1;
  }
  return out;
}

const same = (a: Message, b: Message) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** Undefined when the send-time sanitation would remove nothing: there is nothing to repair. */
export function planRepair(
  path: readonly StoredMessage[],
  uncertain: UncertainEffect,
): RepairPlan | undefined {
  const original = path.map((e) => e.message);
  if (sanitizeHistory(original).removed.length === 0) return undefined;
  const actions: string[] = [];
  let fixed = repairedMessages(path, uncertain, actions);
  // Cases the targeted repair does not cover (e.g. reasoning lost when merging two replies of
  // different routes): take what the send-time sanitation itself would send.
  const leftover = sanitizeHistory(fixed);
  if (leftover.removed.length) {
    fixed = leftover.messages;
    actions.push(...leftover.removed.map((r) => `drop ${r}`));
  }
  let keep = 0;
  while (keep < path.length && keep < fixed.length && same(path[keep]!.message, fixed[keep]!)) keep++;
  return {
    parentId: keep === 0 ? null : path[keep - 1]!.nodeId,
    append: fixed.slice(keep),
    actions,
  };
}
