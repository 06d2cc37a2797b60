// Markdown tables aligned for the terminal (SPEC E1). A table streams in a row at a time, so the
// chat shows the rows as they come and, once the table has ended, draws it again with its columns
// lined up (by display width, so CJK and emoji cells stay aligned) and its header bold, honouring
// the separator row's alignment (:--, :-:, --:). A table wider than the screen stays as written.
import type { Style } from "./colors.js";
import { displayWidth } from "./width.js";

type Align = "left" | "center" | "right";

export const isTableRow = (line: string): boolean => /^\s*\|.*\|\s*$/.test(line);
const isSeparator = (cells: string[]) => cells.length > 0 && cells.every((c) => /^:?-{1,}:?$/.test(c));

function cellsOf(row: string): string[] {
  // Split on pipes not escaped with a backslash; the outer pipes open and close the row.
  const inner = row.trim().replace(/^\|/, "").replace(/\|$/, "");
  return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));
}

function pad(text: string, width: number, align: Align): string {
  const gap = Math.max(0, width - displayWidth(text));
  if (align === "right") return " ".repeat(gap) + text;
  if (align === "center") return " ".repeat(Math.floor(gap / 2)) + text + " ".repeat(Math.ceil(gap / 2));
  return text + " ".repeat(gap);
}

/**
 * The table's lines aligned, or undefined when `rows` are no table (no separator row under the
 * header) or it would not fit in `columns`. `inline` styles a cell's Markdown.
 */
export function alignTable(
  rows: readonly string[],
  columns: number,
  style: Style,
  inline: (text: string) => string,
): string[] | undefined {
  const parsed = rows.map(cellsOf);
  const sep = parsed[1];
  if (!sep || !isSeparator(sep)) return undefined;
  const aligns: Align[] = sep.map((c) =>
    c.startsWith(":") && c.endsWith(":") ? "center" : c.endsWith(":") ? "right" : "left",
  );
  const n = Math.max(...parsed.map((r) => r.length));
  const body = [parsed[0]!, ...parsed.slice(2)].map((r) =>
    Array.from({ length: n }, (_, i) => inline(r[i] ?? "")),
  );
  const widths = Array.from({ length: n }, (_, i) => Math.max(1, ...body.map((r) => displayWidth(r[i]!))));
  const total = widths.reduce((a, w) => a + w + 3, 1);
  if (total > columns) return undefined;
  const line = (cells: string[], bold: boolean) =>
    `│ ${cells.map((c, i) => pad(bold ? style.bold(c) : c, widths[i]!, aligns[i] ?? "left")).join(" │ ")} │`;
  const rule = (l: string, m: string, r: string) =>
    style.dim(`${l}${widths.map((w) => "─".repeat(w + 2)).join(m)}${r}`);
  return [
    rule("┌", "┬", "┐"),
    line(body[0]!, true),
    rule("├", "┼", "┤"),
    ...body.slice(1).map((r) => line(r, false)),
    rule("└", "┴", "┘"),
  ];
}
