// The last pass before a request leaves (SPEC H1, H2, H6): whatever is stored, what is sent has
// user/assistant alternation, every call answered by its result right after it, no result
// without its call, no call with an empty id, and no reasoning left without an item after it.
// Everything removed is reported so callers can log it: a removal means some path forgot to
// persist a result (H3). On a well-formed history it changes nothing but merging speakers.
import type {
  AssistantMessage,
  AssistantPart,
  Message,
  ToolResultMessage,
  UserMessage,
  UserPart,
} from "../types.js";

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
      removed.push(`${describeResult(m)} without its call`);
      continue;
    }
    if (m.role === "user") {
      if (isEmptyUser(m)) removed.push("empty user message");
      else pushUser(out, m);
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
      // Two assistant turns in a row (e.g. an interrupted turn): keep both in one.
      out[out.length - 1] = mergeAssistants(prev, assistant, removed);
    } else out.push(assistant);
    out.push(...answered);
  }
  return { messages: out, removed };
}

/**
 * One message from two. Reasoning belongs to the route that made it (adapters and shaping read
 * `origin` to decide what goes back), so the merged message keeps the origin of the one that
 * carries reasoning; when both do and their routes differ, the earlier reasoning is dropped.
 */
function mergeAssistants(
  prev: AssistantMessage,
  next: AssistantMessage,
  removed: string[],
): AssistantMessage {
  const sameRoute =
    prev.origin.provider === next.origin.provider && prev.origin.apiMode === next.origin.apiMode;
  const prevBound = prev.parts.some((p) => p.type === "reasoning");
  const nextBound = next.parts.some(
    (p) => p.type === "reasoning" || (p.type === "toolCall" && p.providerIds),
  );
  if (sameRoute || !prevBound) return { ...next, parts: [...prev.parts, ...next.parts] };
  if (!nextBound) return { ...prev, parts: [...prev.parts, ...next.parts] };
  const kept = prev.parts.filter((p) => p.type !== "reasoning");
  removed.push(
    `${prev.parts.length - kept.length} reasoning part(s) of ${prev.origin.provider} merged into a later message`,
  );
  return { ...next, parts: [...kept, ...next.parts] };
}

function describeResult(r: ToolResultMessage): string {
  return r.callId
    ? `tool result ${r.callId} (${r.toolName})`
    : `tool result with an empty call id (${r.toolName})`;
}

function hasCalls(m: AssistantMessage): boolean {
  return m.parts.some((p) => p.type === "toolCall");
}

/** A part the reasoning before it can lead to. */
function isSubstantive(p: AssistantPart): boolean {
  return p.type === "toolCall" || (p.type === "text" && p.text !== "");
}

function pairCalls(
  m: AssistantMessage,
  results: ToolResultMessage[],
  removed: string[],
): { assistant: AssistantMessage | undefined; answered: ToolResultMessage[] } {
  const byId = new Map<string, ToolResultMessage>();
  for (const r of results) {
    if (r.callId === "") removed.push(`${describeResult(r)} without its call`);
    else if (byId.has(r.callId)) removed.push(`duplicate result for call ${r.callId}`);
    else byId.set(r.callId, r);
  }
  let parts: AssistantPart[] = [];
  const answered: ToolResultMessage[] = [];
  let changed = false;
  for (const p of m.parts) {
    if (p.type !== "toolCall") {
      parts.push(p);
      continue;
    }
    const r = p.callId ? byId.get(p.callId) : undefined;
    if (!r) {
      removed.push(
        p.callId
          ? `tool call ${p.callId} (${p.name}) without a result`
          : `tool call with an empty id (${p.name})`,
      );
      changed = true;
      continue;
    }
    byId.delete(p.callId);
    parts.push(p);
    answered.push(r);
  }
  for (const r of byId.values()) removed.push(`${describeResult(r)} without its call`);
  // Reasoning with nothing after it is rejected on its own (H6): cut it off the end.
  let last = parts.length;
  while (last > 0 && !isSubstantive(parts[last - 1]!)) last--;
  const trailing = parts.slice(last).filter((p) => p.type === "reasoning").length;
  if (trailing > 0) {
    removed.push(
      trailing === 1
        ? "reasoning without a following item"
        : `${trailing} reasoning parts without a following item`,
    );
    parts = parts.slice(0, last);
    changed = true;
  }
  if (!parts.some(isSubstantive)) {
    if (!changed) removed.push("empty assistant message");
    return { assistant: undefined, answered: [] };
  }
  return { assistant: changed ? { ...m, parts } : m, answered };
}

function isEmptyUser(m: UserMessage): boolean {
  if (typeof m.content === "string") return m.content === "";
  return !m.content.some((p) => p.type === "image" || p.text !== "");
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
