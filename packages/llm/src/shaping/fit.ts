// Whole oldest turns leave until the history fits the target's input limit minus 2 % (SPEC H5).
// Counting is skipped when a cheap upper bound (1 token per character) already fits: no
// tokenizer spends more than that, and expanded histories are re-shaped every round.
import type { Message, UserPart } from "../types.js";

export type TokenEstimator = (text: string) => number;

/** What one image costs, roughly, on the vision APIs; its base64 bytes are not tokens. */
export const IMAGE_TOKENS = 1600;
export const WINDOW_MARGIN = 0.02;

/** Hangul, CJK ideographs, kana, full-width forms: about one token per character on BPEs. */
const WIDE =
  /[\u1100-\u11ff\u2e80-\u303f\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

/** Default estimate: one token per wide (CJK) character, one per three characters otherwise. */
export function estimateTextTokens(text: string): number {
  let wide = 0;
  let other = 0;
  for (const ch of text) {
    if (WIDE.test(ch)) wide++;
    else other++;
  }
  return wide + Math.ceil(other / 3);
}

function countImages(content: string | UserPart[]): number {
  return typeof content === "string" ? 0 : content.filter((p) => p.type === "image").length;
}

/** What goes on the wire for a message, image bytes aside (they are counted per image). */
function sentText(m: Message): { text: string; images: number } {
  const stripImages = (content: string | UserPart[]) =>
    typeof content === "string"
      ? content
      : content.map((p) => (p.type === "image" ? { type: "image", mediaType: p.mediaType } : p));
  if (m.role === "assistant") return { text: JSON.stringify(m.parts), images: 0 };
  if (m.role === "user")
    return { text: JSON.stringify([m.name, stripImages(m.content)]), images: countImages(m.content) };
  return { text: JSON.stringify([m.callId, stripImages(m.content)]), images: countImages(m.content) };
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
  const sent = history.map(sentText);
  const cheap = sent.reduce((n, s) => n + s.text.length + s.images * IMAGE_TOKENS, system.length);
  if (cheap <= limit) return { messages: [...history], dropped: 0, counted: false, overLimit: false };

  const estimate = opts.estimate ?? estimateTextTokens;
  const tokens = sent.map((s) => estimate(s.text) + s.images * IMAGE_TOKENS);
  let total = tokens.reduce((a, b) => a + b, estimate(system));
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
