// Caps long text with a visible marker that says how much was cut (never a silent drop), without
// splitting a UTF-16 surrogate pair (SPEC U7).

/** 12345 → "12,345", the same on every machine (toLocaleString depends on the locale). */
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Keeps the first 70 % and the last 20 % of `max`, with a marker in between. */
export function capWithMarker(text: string, max: number, label: string): string {
  if (text.length <= max) return text;
  let headEnd = Math.floor(max * 0.7);
  let tailStart = text.length - Math.floor(max * 0.2);
  if (headEnd > 0 && isHigh(text.charCodeAt(headEnd - 1))) headEnd--;
  if (tailStart < text.length && isLow(text.charCodeAt(tailStart))) tailStart++;
  const cut = tailStart - headEnd;
  const marker = `[... ${groupDigits(cut)} characters of ${label} cut here (${groupDigits(text.length)} in all, limit ${groupDigits(max)}) ...]`;
  return `${text.slice(0, headEnd)}\n\n${marker}\n\n${text.slice(tailStart)}`;
}
