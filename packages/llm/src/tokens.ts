// The one token estimate (SPEC C6, U7) for text the API has not measured: the compression
// trigger, the window fit at send time and the `iris context` report all use it, so they never
// disagree. Script-aware and calibrated so CJK is not undercounted (the seeds: English-calibrated
// character estimates undercount Korean).
import type { AssistantMessage, Message, UserPart } from "./types.js";

/** Per-message framing the wire formats add (role markers, separators). */
const MESSAGE_OVERHEAD = 4;
/** Per tool call: id, type and name framing. */
const TOOL_CALL_OVERHEAD = 8;
/** A flat charge per image; providers bill images by size, this is a typical mid-size image. */
export const IMAGE_TOKEN_ESTIMATE = 1_600;

/**
 * Weights per character class, in tokens. Measured against cl100k_base (the older, less
 * compact encoding; o200k counts fewer) on Korean, Japanese, Chinese, Cyrillic, Arabic,
 * Devanagari and Thai samples. Han and kana run at 1.1–1.2 tokens a character. Hangul runs at
 * 0.9–1.7 line by line in cl100k (the seeds' Korean text: 1.7 leaves 8 of 280 lines a little
 * under and the whole text 27 % over cl100k, 86 % over o200k); rare syllables can take 3 and
 * are the accepted residue.
 */
const HANGUL = 1.7;
const HAN_OR_KANA = 1.5;
const OTHER_TWO_BYTE = 1.0; // Latin-1 supplement, Greek, Cyrillic, Hebrew, Arabic…
const OTHER_THREE_BYTE = 1.25; // Devanagari, Thai, symbols…
const ASTRAL = 3; // emoji and other characters outside the BMP (a surrogate pair)
const ASCII_CHARS_PER_TOKEN = 4;

function isHangul(c: number): boolean {
  return (
    (c >= 0xac00 && c <= 0xd7af) || // syllables
    (c >= 0x1100 && c <= 0x11ff) || // Jamo
    (c >= 0x3130 && c <= 0x318f) // compatibility Jamo
  );
}

function isHanOrKana(c: number): boolean {
  return (
    (c >= 0x3000 && c <= 0x30ff) || // CJK punctuation, Hiragana, Katakana
    (c >= 0x3400 && c <= 0x4dbf) || // CJK extension A
    (c >= 0x4e00 && c <= 0x9fff) || // CJK unified ideographs
    (c >= 0xf900 && c <= 0xfaff) || // CJK compatibility ideographs
    (c >= 0xff00 && c <= 0xffef) // half/full-width forms
  );
}

function isAsciiWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

function isAsciiSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * A script-aware token estimate, O(n), no tables to load. ASCII words cost about one token per
 * four characters (at least one), runs of punctuation about one per two, long whitespace runs
 * about one per four; Hangul 1.7 and Han/kana 1.5 a character; other scripts by UTF-8 width.
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  let word = 0;
  let punct = 0;
  let space = 0;
  const flush = (): void => {
    if (word > 0) tokens += Math.max(1, word / ASCII_CHARS_PER_TOKEN);
    if (punct > 0) tokens += Math.ceil(punct / 2);
    if (space > 1) tokens += Math.ceil((space - 1) / 4);
    word = 0;
    punct = 0;
    space = 0;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (isAsciiWordChar(c)) {
        if (punct > 0 || space > 0) flush();
        word++;
      } else if (isAsciiSpace(c)) {
        if (word > 0 || punct > 0) flush();
        space++;
      } else {
        if (word > 0 || space > 0) flush();
        punct++;
      }
      continue;
    }
    flush();
    if (c >= 0xd800 && c <= 0xdbff) {
      tokens += ASTRAL;
      i++; // the low surrogate belongs to the same character
    } else if (isHangul(c)) tokens += HANGUL;
    else if (isHanOrKana(c)) tokens += HAN_OR_KANA;
    else if (c < 0x800) tokens += OTHER_TWO_BYTE;
    else tokens += OTHER_THREE_BYTE;
  }
  flush();
  return Math.ceil(tokens);
}

function partsTokens(content: string | UserPart[]): number {
  if (typeof content === "string") return estimateTokens(content);
  let n = 0;
  for (const part of content) n += part.type === "text" ? estimateTokens(part.text) : IMAGE_TOKEN_ESTIMATE;
  return n;
}

function assistantTokens(m: AssistantMessage): number {
  let n = 0;
  for (const part of m.parts) {
    if (part.type === "text" || part.type === "reasoning") n += estimateTokens(part.text);
    else n += TOOL_CALL_OVERHEAD + estimateTokens(part.name) + estimateTokens(part.argumentsJson);
  }
  return n;
}

// Messages are treated as immutable values, so an estimate can be remembered per object.
const cache = new WeakMap<Message, number>();

/** The estimate for one message, framing included. */
export function estimateMessageTokens(m: Message): number {
  const known = cache.get(m);
  if (known !== undefined) return known;
  let n = MESSAGE_OVERHEAD;
  if (m.role === "assistant") n += assistantTokens(m);
  else if (m.role === "tool") n += partsTokens(m.content) + estimateTokens(m.toolName);
  else n += partsTokens(m.content) + (m.name ? estimateTokens(m.name) : 0);
  cache.set(m, n);
  return n;
}

/** The estimate for a whole prompt: the messages plus the system prompt, if any. */
export function estimateMessagesTokens(messages: readonly Message[], system?: string): number {
  let n = system ? estimateTokens(system) + MESSAGE_OVERHEAD : 0;
  for (const m of messages) n += estimateMessageTokens(m);
  return n;
}
