// Reasoning made elsewhere is dropped at send time (SPEC H4); the stored copy keeps it so a
// return to the original provider can reuse signed thinking and encrypted reasoning.
import type { AssistantMessage, Message, ReasoningPart } from "../types.js";
import { type ShapeTarget, sameRoute } from "./target.js";

/**
 * Whether the target may see this reasoning part. A provider's own item (`raw`) only goes back
 * on the same provider and api mode; plain reasoning text (Chat `reasoning_content`) only to the
 * same provider.
 */
export function keepsReasoning(part: ReasoningPart, m: AssistantMessage, target: ShapeTarget): boolean {
  if (part.raw !== undefined) {
    // Signed items verify only where they were issued: another account of the same provider
    // rejects them. An item stored before issuers were recorded keeps the old rule.
    const sameIssuer =
      part.issuer === undefined || target.issuer === undefined || part.issuer === target.issuer;
    return sameIssuer && sameRoute(m.origin, target);
  }
  return m.origin.provider === target.provider;
}

export interface ForeignReport {
  messages: Message[];
  droppedReasoning: number;
  /** Assistant messages that held nothing but foreign reasoning. */
  droppedMessages: number;
}

export function dropForeignReasoning(history: readonly Message[], target: ShapeTarget): ForeignReport {
  let droppedReasoning = 0;
  let droppedMessages = 0;
  const messages: Message[] = [];
  for (const m of history) {
    if (m.role !== "assistant") {
      messages.push(m);
      continue;
    }
    const parts = m.parts.filter((p) => p.type !== "reasoning" || keepsReasoning(p, m, target));
    if (parts.length === m.parts.length) {
      messages.push(m); // untouched: same object, so same-route requests stay byte-identical
      continue;
    }
    droppedReasoning += m.parts.length - parts.length;
    if (parts.length === 0) droppedMessages++;
    else messages.push({ ...m, parts });
  }
  return { messages, droppedReasoning, droppedMessages };
}
