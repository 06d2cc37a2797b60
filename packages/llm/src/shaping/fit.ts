// Whole oldest turns leave until the history fits the target's input limit minus 2 % (SPEC H5).
// Counting is skipped when a cheap upper bound (2 tokens per UTF-16 unit) already fits: the
// estimate never spends more than that, and expanded histories are re-shaped every round.
// Counting uses the one estimate of tokens.ts, the one the compression trigger and `iris context`
// use, so the three never disagree (on CJK text in particular).
import { estimateMessageTokens, estimateTokens, IMAGE_TOKEN_ESTIMATE } from "../tokens.js";
import type { Message } from "../types.js";

export type TokenEstimator = (text: string) => number;

/** What one image costs, roughly, on the vision APIs; its base64 bytes are not tokens. */
export const IMAGE_TOKENS = IMAGE_TOKEN_ESTIMATE;
export const WINDOW_MARGIN = 0.02;
/**
 * No text costs more than this per UTF-16 unit under the estimate (Hangul 1.7 a character,
 * astral characters 3 per surrogate pair), so length × this is a safe upper bound.
 */
const MAX_TOKENS_PER_UNIT = 2;

/** Characters of a message that count, image bytes aside (images are counted apart). */
function cheapLength(m: Message): { length: number; images: number } {
  if (m.role === "assistant") {
    let length = 0;
    for (const p of m.parts)
      length += p.type === "toolCall" ? p.name.length + p.argumentsJson.length : p.text.length;
    return { length: length + 16, images: 0 };
  }
  const content = m.content;
  if (typeof content === "string") return { length: content.length + 16, images: 0 };
  let length = 16;
  let images = 0;
  for (const p of content) {
    if (p.type === "text") length += p.text.length;
    else images++;
  }
  return { length, images };
}

/** A message counted with a caller's text tokenizer (images at the flat rate). */
function estimateWith(m: Message, estimate: TokenEstimator): number {
  if (m.role === "assistant")
    return m.parts.reduce(
      (n, p) => n + estimate(p.type === "toolCall" ? p.name + p.argumentsJson : p.text),
      4,
    );
  const c = m.content;
  if (typeof c === "string") return estimate(c) + 4;
  return c.reduce((n, p) => n + (p.type === "text" ? estimate(p.text) : IMAGE_TOKENS), 4);
}

export interface FitOptions {
  contextWindow: number;
  system?: string;
  /** Tokens kept free for what is not in the history (tool specs, …). */
  reserveTokens?: number;
  estimate?: TokenEstimator;
}

export interface FitReport {
  messages: Message[];
  dropped: number;
  /** Whether exact counting ran (false when the cheap bound fit). */
  counted: boolean;
  /** Still over the limit after dropping everything but the newest turn. */
  overLimit: boolean;
}

/** Turn starts: each user message opens a turn; anything before the first one is a turn too. */
function turnStarts(messages: readonly Message[]): number[] {
  const starts = [0];
  messages.forEach((m, i) => {
    if (m.role === "user" && i > 0) starts.push(i);
  });
  return starts;
}

export function fitToWindow(history: readonly Message[], opts: FitOptions): FitReport {
  const limit = Math.floor(opts.contextWindow * (1 - WINDOW_MARGIN)) - (opts.reserveTokens ?? 0);
  const system = opts.system ?? "";
  let cheap = system.length * MAX_TOKENS_PER_UNIT;
  for (const m of history) {
    const c = cheapLength(m);
    cheap += c.length * MAX_TOKENS_PER_UNIT + c.images * IMAGE_TOKENS;
  }
  if (cheap <= limit) return { messages: [...history], dropped: 0, counted: false, overLimit: false };

  // The one estimate (tokens.ts) unless a caller brings an exact tokenizer for text.
  const tokens = history.map((m) =>
    opts.estimate ? estimateWith(m, opts.estimate) : estimateMessageTokens(m),
  );
  let total = tokens.reduce((a, b) => a + b, system ? (opts.estimate ?? estimateTokens)(system) : 0);
  const starts = turnStarts(history);
  let first = 0; // index into starts of the oldest turn kept
  while (total > limit && first < starts.length - 1) {
    const from = starts[first] ?? 0;
    const to = starts[first + 1] ?? history.length;
    for (let i = from; i < to; i++) total -= tokens[i] ?? 0;
    first++;
  }
  const keepFrom = starts[first] ?? 0;
  return { messages: history.slice(keepFrom), dropped: keepFrom, counted: true, overLimit: total > limit };
}
