// Deterministic names for a tool effect (SPEC D4): the logical operation id is derived from the
// stored checkpoint (session, assistant node, position of the call inside it), never from the
// provider's call id, so a resumed session computes the same id for the same stored call.
import { createHash } from "node:crypto";
import { type AssistantMessage, parseBoundedJson } from "@iris/llm";

export function logicalOpId(sessionId: string, assistantNodeId: string, callIndex: number): string {
  return `${sessionId}:${assistantNodeId}:${callIndex}`;
}

/** Position of the call among the tool calls of its assistant message, or -1. */
export function callIndexOf(message: AssistantMessage, callId: string): number {
  return message.parts.filter((p) => p.type === "toolCall").findIndex((p) => p.callId === callId);
}

/**
 * sha256 of the arguments as canonical JSON (sorted keys); unparsable text, and text nested too
 * deep for canonicalJson's recursion (E4), is hashed as is.
 */
export function argsFingerprint(argumentsJson: string): string {
  let canonical: string;
  try {
    canonical = canonicalJson(argumentsJson.trim() ? parseBoundedJson(argumentsJson) : {});
  } catch {
    canonical = `raw:${argumentsJson}`;
  }
  return `sha256:${createHash("sha256").update(canonical).digest("hex")}`;
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
