// Terminal display width (SPEC U7): CJK and other wide characters take two columns, combining
// marks and zero-width characters none. Cutting never splits a surrogate pair.

const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f], // Hangul Jamo
  [0x2e80, 0x303e], // CJK radicals, punctuation
  [0x3041, 0x33ff], // Hiragana, Katakana, CJK symbols
  [0x3400, 0x4dbf], // CJK Ext A
  [0x4e00, 0x9fff], // CJK unified
  [0xa000, 0xa4cf], // Yi
  [0xa960, 0xa97f], // Hangul Jamo Ext A
  [0xac00, 0xd7a3], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility
  [0xfe30, 0xfe4f], // CJK compatibility forms
  [0xff00, 0xff60], // Fullwidth forms
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f], // emoji
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd], // CJK Ext B+
];

function isWide(cp: number): boolean {
  for (const [a, b] of WIDE) if (cp >= a && cp <= b) return true;
  return false;
}

function isZeroWidth(cp: number): boolean {
  return (
    (cp >= 0x0300 && cp <= 0x036f) || // combining marks
    (cp >= 0x200b && cp <= 0x200f) || // zero-width space, joiners, marks
    (cp >= 0xfe00 && cp <= 0xfe0f) || // variation selectors
    (cp >= 0x1160 && cp <= 0x11ff) // Hangul medial/final jamo combine with the initial
  );
}

export function charWidth(cp: number): number {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (isZeroWidth(cp)) return 0;
  return isWide(cp) ? 2 : 1;
}

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text.replace(ANSI, "")) w += charWidth(ch.codePointAt(0)!);
  return w;
}

/** The longest prefix that fits `columns`, with `…` when cut. Iterates code points, not units. */
export function truncateToWidth(text: string, columns: number, ellipsis = "…"): string {
  if (displayWidth(text) <= columns) return text;
  const room = columns - displayWidth(ellipsis);
  let w = 0;
  let out = "";
  for (const ch of text) {
    const cw = charWidth(ch.codePointAt(0)!);
    if (w + cw > room) break;
    out += ch;
    w += cw;
  }
  return out + ellipsis;
}

/** Pads to `columns` display columns (for aligned tables with CJK titles). */
export function padToWidth(text: string, columns: number): string {
  const w = displayWidth(text);
  return w >= columns ? text : text + " ".repeat(columns - w);
}
