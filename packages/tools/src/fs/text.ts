// Small text helpers shared by the file and terminal tools. Cuts never split a UTF-16
// surrogate pair, so the result is always valid Unicode.

/** Splits into lines; a final newline does not start another line; `\r\n` counts as one break. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

/** Index at or below `i` that does not fall inside a surrogate pair. */
export function safeCutIndex(s: string, i: number): number {
  if (i <= 0) return 0;
  if (i >= s.length) return s.length;
  const prev = s.charCodeAt(i - 1);
  return prev >= 0xd800 && prev <= 0xdbff ? i - 1 : i;
}

/** Cuts a line longer than `max` characters, saying how many were cut. */
export function cutLine(line: string, max: number): string {
  if (line.length <= max) return line;
  const end = safeCutIndex(line, max);
  return `${line.slice(0, end)} … [${line.length - end} chars cut]`;
}

/** `     12|text`: the numbered-line format read_file and patch share. */
export function numberLine(n: number, text: string): string {
  return `${String(n).padStart(6)}|${text}`;
}
