// After the middle is cut out, every call must still have its result and every result its call
// (SPEC C3, U1): calls whose results were cut get a stub result saying so; results whose calls
// were cut are removed.
import { type Message, toolCallsOf } from "@iris/llm";

export const CUT_RESULT_TEXT =
  "[result removed by context compaction; the original output stays in the session history]";

export interface OrphanRepair {
  messages: Message[];
  /** Call ids that got a stub result. */
  stubbed: string[];
  /** Call ids of results removed because their call was gone. */
  removed: string[];
}

/** A result belongs to the call group right before it (the assistant message and its results). */
export function repairOrphans(messages: readonly Message[]): OrphanRepair {
  const out: Message[] = [];
  const stubbed: string[] = [];
  const removed: string[] = [];
  let open = new Map<string, string>(); // callId → tool name, of the current group
  const closeGroup = (): void => {
    for (const [callId, toolName] of open) {
      stubbed.push(callId);
      out.push({ role: "tool", callId, toolName, content: CUT_RESULT_TEXT, isError: false });
    }
    open = new Map();
  };
  for (const m of messages) {
    if (m.role === "tool") {
      if (open.delete(m.callId)) out.push(m);
      else removed.push(m.callId);
      continue;
    }
    closeGroup();
    out.push(m);
    if (m.role === "assistant") for (const call of toolCallsOf(m)) open.set(call.callId, call.name);
  }
  closeGroup();
  return { messages: out, stubbed, removed };
}
