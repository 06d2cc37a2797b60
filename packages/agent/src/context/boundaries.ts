// Where the head ends and the protected tail begins (SPEC C2, C3). Both boundaries sit between
// whole call groups: an assistant message with tool calls and the results that follow it.
import type { Message } from "@iris/llm";
import { isSummaryMessage } from "./summary-text.js";
import { estimateMessageTokens } from "./tokens.js";

export interface TailOptions {
  /** Token budget of the tail. */
  budgetTokens: number;
  /**
   * The tail keeps at least this many messages; this floor beats the budget, up to
   * FLOOR_BUDGET_FACTOR × the budget: a floor of 20 messages of 6 KB tool results would otherwise
   * protect more than the window holds, and every compression would save nothing.
   */
  minMessages: number;
}

/** How far the message floor may take the tail past its token budget. */
export const FLOOR_BUDGET_FACTOR = 2;

/** True when index i starts a clean group (not a tool result that belongs to an earlier call). */
function isGroupStart(messages: readonly Message[], i: number): boolean {
  return messages[i]?.role !== "tool";
}

/** Index of the newest real user message (a summary message does not count), or -1. */
export function newestUserIndex(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === "user" && !isSummaryMessage(m)) return i;
  }
  return -1;
}

/**
 * The first index of the protected tail: a token budget, measured from the end. Walks back taking
 * messages while the budget allows or the floor is not met (the floor within its cap), then moves
 * the cut back to the start of its call group (never between a call and its result). The tail
 * does not reach back to the newest user message: a long turn is cut inside itself, and the
 * engine keeps that message verbatim apart from the tail (SPEC C1–C3). Clamped to `floorIndex`.
 */
export function tailStart(messages: readonly Message[], opts: TailOptions, floorIndex = 0): number {
  let used = 0;
  let start = messages.length;
  const cap = opts.budgetTokens * FLOOR_BUDGET_FACTOR;
  for (let i = messages.length - 1; i >= floorIndex; i--) {
    const cost = estimateMessageTokens(messages[i] as Message);
    const kept = messages.length - i - 1;
    const overBudget = used + cost > opts.budgetTokens;
    // The newest message always stays; after it the budget, or the floor within its cap.
    if (kept > 0 && overBudget && (kept >= opts.minMessages || used + cost > cap)) break;
    used += cost;
    start = i;
  }
  while (start > floorIndex && !isGroupStart(messages, start)) start--;
  return Math.max(start, floorIndex);
}

/**
 * The end (exclusive) of the head: the first `headMessages`, extended past the results of a call
 * made in the head, and stopped before an earlier summary (which belongs to the part summarised).
 */
export function headEnd(messages: readonly Message[], headMessages: number): number {
  let end = Math.min(headMessages, messages.length);
  for (let i = 0; i < end; i++) {
    if (isSummaryMessage(messages[i] as Message)) return i;
  }
  while (end < messages.length && !isGroupStart(messages, end)) end++;
  return end;
}

/** Index of the newest summary message in [from, to), or -1. */
export function previousSummaryIndex(messages: readonly Message[], from: number, to: number): number {
  for (let i = Math.min(to, messages.length) - 1; i >= from; i--) {
    if (isSummaryMessage(messages[i] as Message)) return i;
  }
  return -1;
}
