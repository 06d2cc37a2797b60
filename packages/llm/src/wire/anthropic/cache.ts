// Prompt-cache breakpoints (SPEC P6): at most 4 — the last system block, the last tool, the last
// cacheable block of the newest turn and of the previous request's newest turn. The markers move
// by one round each time, so every request repeats the previous one's bytes up to its newest
// turn but for the marker that moved (U5). Blocks are copied, never changed in
// place: stored history and raw thinking stay untouched.
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
  // The previous request ended two turns back (its newest user turn): a marker there again reads
  // the entry it wrote, even when the newest turn holds more blocks (many parallel tool results)
  // than the provider's look-back of 20 blocks reaches.
  const previous = messages[last - 2];
  if (previous && last - 2 >= 0)
    messages[last - 2] = { role: previous.role, content: markLast(previous.content) };
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
