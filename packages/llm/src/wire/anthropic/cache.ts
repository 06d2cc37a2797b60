// Prompt-cache breakpoints (SPEC P6): at most 4 — the last system block, the last tool, and the
// last cacheable block of each of the two newest turns. The markers move by one round each time,
// so every request repeats the previous one's bytes up to its newest round (U5).
import type { Block, Turn } from "./convert-messages.js";

export const MAX_BREAKPOINTS = 4;
const EPHEMERAL = { type: "ephemeral" } as const;

// Thinking blocks cannot carry cache_control; empty text blocks are rejected outright.
function cacheable(b: Block): boolean {
  if (b["type"] === "thinking" || b["type"] === "redacted_thinking") return false;
  return !(b["type"] === "text" && b["text"] === "");
}

function markLast(blocks: Block[]): Block[] {
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i];
    if (b && cacheable(b)) {
      const copy = blocks.slice();
      copy[i] = { ...b, cache_control: EPHEMERAL };
      return copy;
    }
  }
  return blocks;
}

export interface Cacheable {
  system: Block[];
  tools: Block[];
  messages: Turn[];
}

export function applyCacheBreakpoints(input: Cacheable): Cacheable {
  const messages = input.messages.slice();
  const last = messages.length - 1;
  const turn = messages[last];
  if (turn) messages[last] = { role: turn.role, content: markLast(turn.content) };
  // A second marker on the turn before (the model's calls, right after where the previous request
  // ended): its look-back of 20 blocks reaches the previous request's entry even when the newest
  // turn holds more blocks than that (many parallel tool results). Both markers sit in the newest
  // round, so every request still repeats the previous one's bytes up to its newest round (U5).
  const previous = messages[last - 1];
  if (previous && last - 1 >= 0)
    messages[last - 1] = { role: previous.role, content: markLast(previous.content) };
  return { system: markLast(input.system), tools: markLast(input.tools), messages };
}

/** How many breakpoints a request body carries (tests and the invariant check use it). */
export function countBreakpoints(body: Record<string, unknown>): number {
  let n = 0;
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (typeof v === "object" && v !== null) {
      for (const [k, child] of Object.entries(v)) {
        if (k === "cache_control") n++;
        else visit(child);
      }
    }
  };
  visit(body);
  return n;
}
