// Tool-call ids at send time (SPEC H4, U1). The canonical `callId` pairs a call with its result;
// what the provider called it lives in `providerIds`. For the call's own route the provider ids
// stay (it sees its own ids); for any other route they are dropped, so adapters fall back to the
// canonical id, and a canonical id the strictest wire would reject is replaced by a safe one.
// Ids reused across calls (local servers answering `call_0` every time, composite `call|fc` ids
// that collapse to one) get unique ids, and their results are rewritten in order to match.
import type { AssistantMessage, Message, ToolCallPart, ToolResultMessage } from "../types.js";
import { type ShapeTarget, sameRoute } from "./target.js";

/** Ids every wire accepts: Anthropic's pattern, OpenAI Chat's 40-character limit. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,40}$/;
const MAX_ID = 40;

/** The id as the strictest wire sees it (Anthropic replaces other characters): collisions are judged on this. */
function wireKey(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** FNV-1a, 32 bits: a short deterministic fingerprint (ids must not depend on anything but the input). */
function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/** A foreign canonical id every wire accepts. Deterministic, so results map the same way. */
export function safeCallId(id: string): string {
  if (SAFE_ID.test(id)) return id;
  const key = wireKey(id);
  return key.length <= MAX_ID ? key : `${key.slice(0, MAX_ID - 9)}_${fingerprint(id)}`;
}

/** The pieces an id is known by: a composite `call_x|fc_y` answers to either half. */
function aliases(...ids: (string | undefined)[]): Set<string> {
  const out = new Set<string>();
  for (const id of ids) {
    if (!id) continue;
    out.add(id);
    for (const piece of id.split("|")) if (piece) out.add(piece);
  }
  return out;
}

interface PendingCall {
  original: string;
  aliases: Set<string>;
  id: string;
  answered: boolean;
}

export interface CallIdReport {
  messages: Message[];
  /** Calls whose provider ids were dropped because they came from another route. */
  foreign: number;
  /** Calls given a new id because an earlier call used the same one. */
  renamed: number;
}

export function assignCallIds(history: readonly Message[], target: ShapeTarget): CallIdReport {
  // Fresh ids must not collide with any id the history uses anywhere, later calls included.
  const known = new Set<string>();
  for (const m of history) {
    if (m.role === "tool") known.add(wireKey(m.callId));
    if (m.role !== "assistant") continue;
    for (const p of m.parts) {
      if (p.type !== "toolCall") continue;
      known.add(wireKey(p.callId));
      if (p.providerIds?.callId) known.add(wireKey(p.providerIds.callId));
    }
  }
  const used = new Set<string>(); // wire keys of ids already sent in this request
  const report: CallIdReport = { messages: [], foreign: 0, renamed: 0 };
  let pending: PendingCall[] = [];

  const fresh = (base: string): string => {
    for (let n = 2; ; n++) {
      const suffix = `__${n}`;
      const id = `${base.slice(0, MAX_ID - suffix.length)}${suffix}`;
      if (!known.has(id) && !used.has(id)) return id;
    }
  };

  const shapeCall = (p: ToolCallPart, same: boolean): ToolCallPart => {
    if (p.callId === "") return p; // the sanitation pass removes it
    let id = same ? p.callId : safeCallId(p.callId);
    let keepProviderIds = same && p.providerIds !== undefined;
    const wire = keepProviderIds ? (p.providerIds?.callId ?? id) : id;
    if (used.has(wireKey(wire)) || used.has(wireKey(id))) {
      id = fresh(safeCallId(p.callId));
      keepProviderIds = false;
      report.renamed++;
    } else if (!same && p.providerIds !== undefined) report.foreign++;
    used.add(wireKey(id));
    if (keepProviderIds && p.providerIds?.callId) used.add(wireKey(p.providerIds.callId));
    pending.push({
      original: p.callId,
      aliases: aliases(p.callId, p.providerIds?.callId),
      id,
      answered: false,
    });
    if (keepProviderIds || (id === p.callId && p.providerIds === undefined)) return p;
    const { providerIds: _dropped, ...rest } = p;
    return { ...rest, callId: id };
  };

  const shapeResult = (r: ToolResultMessage): ToolResultMessage => {
    const open = pending.filter((c) => !c.answered);
    const names = aliases(r.callId);
    const match =
      open.find((c) => c.original === r.callId) ??
      open.find((c) => [...names].some((n) => c.aliases.has(n))) ??
      // A second result for an answered call keeps pointing at it; the sanitation pass reports it.
      pending.find((c) => c.original === r.callId);
    if (!match) return r;
    match.answered = true;
    return match.id === r.callId ? r : { ...r, callId: match.id };
  };

  for (const m of history) {
    if (m.role === "user") {
      pending = [];
      report.messages.push(m);
    } else if (m.role === "tool") {
      report.messages.push(shapeResult(m));
    } else {
      pending = [];
      const same = sameRoute(m.origin, target);
      const parts = m.parts.map((p) => (p.type === "toolCall" ? shapeCall(p, same) : p));
      const changed = parts.some((p, i) => p !== m.parts[i]);
      report.messages.push(changed ? ({ ...m, parts } satisfies AssistantMessage) : m);
    }
  }
  return report;
}
