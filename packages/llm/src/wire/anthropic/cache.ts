// Prompt-cache breakpoints (SPEC P6): at most 4 — the last system block, the last tool, the last
// cacheable block of the newest turn, and, when the newest round is longer than the provider's
// look-back, of the previous request's newest turn. Only the newest markers move from round to
// round, so every request repeats the previous one's bytes up to its newest round (U5).
import type { Block, Turn } from "./convert-messages.js";

export const MAX_BREAKPOINTS = 4;
/** How many blocks before a marker Anthropic checks for an earlier cache entry. */
export const LOOKBACK_BLOCKS = 20;
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
  // Anthropic looks back at most LOOKBACK_BLOCKS blocks from a marker for an earlier entry. When
  // the newest round (the model's calls and their results) holds more, the previous request's
  // entry is out of reach. It was written at the last block of that request's newest turn, two
  // turns back: a second marker there reads it exactly, however many calls the round made, and
  // repeats that request's bytes (the block kept its marker). Only then: a marker that moved
  // every round would change bytes before the newest round that ordinary rounds repeat (U5).
  const round = (turn?.content.length ?? 0) + (messages[last - 1]?.content.length ?? 0);
  const before = messages[last - 2];
  if (before && round >= LOOKBACK_BLOCKS)
    messages[last - 2] = { role: before.role, content: markLast(before.content) };
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
