// The last pass before a request leaves (SPEC H1, H2, H6): whatever is stored, what is sent has
// user/assistant alternation, every call answered by its result right after it, and no result
// without its call. Everything removed is reported so callers can log it: a removal means some
// path forgot to persist a result (H3).
import type { AssistantMessage, Message, ToolResultMessage, UserMessage, UserPart } from "../types.js";

export interface SanitizeReport {
  messages: Message[];
  removed: string[];
}

export function sanitizeHistory(input: readonly Message[]): SanitizeReport {
  const removed: string[] = [];
  const out: Message[] = [];
  for (let i = 0; i < input.length; i++) {
    const m = input[i]!;
    if (m.role === "tool") {
      removed.push(`tool result ${m.callId} (${m.toolName}) without its call`);
      continue;
    }
    if (m.role === "user") {
      pushUser(out, m);
      continue;
    }
    // Assistant: gather the results that directly follow it.
    const results: ToolResultMessage[] = [];
    let j = i + 1;
    while (j < input.length && input[j]!.role === "tool") results.push(input[j++] as ToolResultMessage);
    i = j - 1;
    const { assistant, answered } = pairCalls(m, results, removed);
    if (!assistant) continue;
    const prev = out[out.length - 1];
    if (prev?.role === "assistant" && !hasCalls(prev)) {
      // Two assistant turns in a row (e.g. an interrupted turn): keep both texts in one.
      out[out.length - 1] = { ...assistant, parts: [...prev.parts, ...assistant.parts] };
    } else out.push(assistant);
    out.push(...answered);
  }
  return { messages: out, removed };
}

function hasCalls(m: AssistantMessage): boolean {
  return m.parts.some((p) => p.type === "toolCall");
}

function pairCalls(
  m: AssistantMessage,
  results: ToolResultMessage[],
  removed: string[],
): { assistant: AssistantMessage | undefined; answered: ToolResultMessage[] } {
  const byId = new Map<string, ToolResultMessage>();
  for (const r of results) {
    if (byId.has(r.callId)) removed.push(`duplicate result for call ${r.callId}`);
    else byId.set(r.callId, r);
  }
  const parts: AssistantMessage["parts"] = [];
  const answered: ToolResultMessage[] = [];
  for (const p of m.parts) {
    if (p.type !== "toolCall") {
      parts.push(p);
      continue;
    }
    const r = p.callId ? byId.get(p.callId) : undefined;
    if (!r) {
      removed.push(`tool call ${p.callId || "(empty id)"} (${p.name}) without a result`);
      continue;
    }
    byId.delete(p.callId);
    parts.push(p);
    answered.push(r);
  }
  for (const r of byId.values()) removed.push(`tool result ${r.callId} (${r.toolName}) without its call`);
  // A message left with only reasoning has nothing for the reasoning to lead to (H6).
  if (!parts.some((q) => q.type !== "reasoning")) {
    if (parts.length) removed.push("reasoning without a following item");
    return { assistant: undefined, answered: [] };
  }
  return { assistant: { ...m, parts }, answered };
}

/** Consecutive user messages become one, each speaker's text prefixed with their name (H2). */
function pushUser(out: Message[], m: UserMessage): void {
  const prev = out[out.length - 1];
  if (prev?.role !== "user") {
    out.push(m);
    return;
  }
  out[out.length - 1] = { role: "user", content: [...toParts(prev), ...toParts(m)] };
}

function toParts(m: UserMessage): UserPart[] {
  const parts: UserPart[] =
    typeof m.content === "string" ? [{ type: "text", text: m.content }] : [...m.content];
  if (m.name) {
    const first = parts[0];
    if (first?.type === "text") parts[0] = { type: "text", text: `${m.name}: ${first.text}` };
    else parts.unshift({ type: "text", text: `${m.name}:` });
  }
  return parts;
}
