// Send-time shaping (SPEC H4–H6, U1): a pure function of (stored path, target). The store keeps
// every item exactly as received; this turns that path into what the target can read:
//   1. compaction items the target cannot read → their originals (caller's hook, cycle-safe)
//   2. reasoning from another provider / api mode → dropped
//   3. tool-call ids: provider ids only for their own route; reused ids made unique, results too
//   4. images → a text note for text-only models
//   5. whole oldest turns dropped to fit the input limit minus 2 %
//   6. the sanitation pass (calls without results, orphaned reasoning, role merging), and a
//      placeholder user message when the history would open with an assistant message
// The target's model name plays no part, so same-provider switches send byte-identical requests.
import type { Message } from "../types.js";
import { assignCallIds } from "./call-ids.js";
import { type ExpandHook, expandCompactions } from "./expand.js";
import { fitToWindow } from "./fit.js";
import { dropForeignReasoning } from "./foreign.js";
import { replaceImages } from "./images.js";
import { sanitizeHistory } from "./sanitize.js";
import type { ShapeTarget } from "./target.js";

export type { ExpandHook } from "./expand.js";
export { WINDOW_MARGIN } from "./fit.js";
export { IMAGE_OMITTED } from "./images.js";
export { type ShapeTarget, sameRoute } from "./target.js";

/** Leads a history that would otherwise open with an assistant message. */
export const CONVERSATION_CONTINUES = "[conversation continues]";

export interface ShapeOptions {
  /** The system prompt, counted against the window. */
  system?: string;
  /** Tokens kept free besides the history and the system prompt (tool specs, …). */
  reserveTokens?: number;
  /** Token estimate used when the cheap bound does not fit. Default: script-aware chars/3. */
  estimateTokens?: (text: string) => number;
  /** Expands a compaction item the target cannot read into its originals (SPEC H5). */
  expand?: ExpandHook;
}

export interface ShapeResult {
  messages: Message[];
  /** What the sanitation pass removed: each one deserves a warning (SPEC H6). */
  removed: string[];
  /** Messages left out to fit the window (whole oldest turns). */
  dropped: number;
  /** What shaping changed on purpose, for debug logs. */
  notes: string[];
}

export function shapeForTarget(
  history: readonly Message[],
  target: ShapeTarget,
  opts: ShapeOptions = {},
): ShapeResult {
  const notes: string[] = [];
  let messages: readonly Message[] = history;

  if (opts.expand) {
    const expanded = expandCompactions(messages, target, opts.expand);
    if (expanded.expanded > 0)
      notes.push(`expanded ${expanded.expanded} compaction item(s) to their originals`);
    notes.push(...expanded.notes);
    messages = expanded.messages;
  }

  const foreign = dropForeignReasoning(messages, target);
  if (foreign.droppedReasoning > 0) {
    notes.push(`dropped ${foreign.droppedReasoning} reasoning part(s) made by another provider or api mode`);
  }
  messages = foreign.messages;

  const ids = assignCallIds(messages, target);
  if (ids.foreign > 0)
    notes.push(`dropped provider ids of ${ids.foreign} call(s) from another provider or api mode`);
  if (ids.renamed > 0) notes.push(`gave ${ids.renamed} call(s) with a reused id a unique id`);
  messages = ids.messages;

  if (target.vision === false) {
    const images = replaceImages(messages);
    if (images.replaced > 0)
      notes.push(`replaced ${images.replaced} image(s) with a note for a text-only model`);
    messages = images.messages;
  }

  let dropped = 0;
  if (target.contextWindow !== undefined) {
    const fit = fitToWindow(messages, {
      contextWindow: target.contextWindow,
      ...(opts.system !== undefined ? { system: opts.system } : {}),
      ...(opts.reserveTokens !== undefined ? { reserveTokens: opts.reserveTokens } : {}),
      ...(opts.estimateTokens ? { estimate: opts.estimateTokens } : {}),
    });
    dropped = fit.dropped;
    if (dropped > 0) notes.push(`dropped ${dropped} message(s) of the oldest turns to fit the input limit`);
    if (fit.overLimit) notes.push("the newest turn alone exceeds the input limit");
    messages = fit.messages;
  }

  const { messages: clean, removed } = sanitizeHistory(messages);
  if (clean[0] && clean[0].role !== "user") {
    // History must open with a user turn (Anthropic, Gemini reject anything else); this happens
    // when the opening user message was empty or lost in a damaged compaction chain.
    clean.unshift({ role: "user", content: CONVERSATION_CONTINUES });
    notes.push("history opened with an assistant message: a placeholder user message leads it");
  }
  return { messages: clean, removed, dropped, notes };
}
