// HTML built from template strings: every interpolated value is escaped unless it is already
// markup made here (an `Html`), so text from the store (titles, tool output) never becomes markup.
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Child = Html | string | number | boolean | null | undefined | readonly Child[];

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

function render(c: Child): string {
  if (c === null || c === undefined || c === false) return "";
  if (c instanceof Html) return c.value;
  if (Array.isArray(c)) return c.map(render).join("");
  return escapeHtml(String(c));
}

export function html(strings: TemplateStringsArray, ...values: Child[]): Html {
  let out = strings[0] ?? "";
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? "");
  });
  return new Html(out);
}

/** JSON for a `<script type="application/json">` block: `<` escaped so no text closes it. */
export function jsonScript(id: string, data: unknown): Html {
  const json = JSON.stringify(data).replace(/</g, "\\u003c");
  return new Html(`<script type="application/json" id="${escapeHtml(id)}">${json}</script>`);
}

export const usd = (x: number) => `$${x.toFixed(x < 0.01 ? 5 : 4)}`;
export const num = (x: number) => x.toLocaleString("en-US");
export const when = (ms: number | null | undefined) =>
  ms ? new Date(ms).toISOString().slice(0, 16).replace("T", " ") : "–";
