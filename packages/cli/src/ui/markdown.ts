// Markdown for the terminal, one line at a time so that it works on a stream: headings bold,
// emphasis, inline code, list bullets, quotes, rules and links; fenced code blocks in their
// language's syntax colours (code-highlight.ts). The source is shown as-is when colours are off
// (NO_COLOR, not a terminal): Markdown is readable.
import { CodeBlock } from "./code-highlight.js";
import type { Style } from "./colors.js";

export class MarkdownLines {
  /** The fenced block being shown, when inside one. */
  private fence: CodeBlock | undefined;

  constructor(private readonly style: Style) {}

  /** One complete line (without its newline), styled. */
  line(raw: string): string {
    const s = this.style;
    if (!s.enabled) return raw;
    const fence = /^\s*(```|~~~)(.*)$/.exec(raw);
    if (fence) {
      this.fence = this.fence ? undefined : new CodeBlock(fence[2] ?? "");
      return s.dim(raw);
    }
    if (this.fence) return this.fence.add(raw) ?? s.cyan(raw);
    const heading = /^(#{1,6})\s+(.*)$/.exec(raw);
    if (heading) {
      const text = this.inline(heading[2]!);
      return heading[1]!.length === 1 ? s.bold(s.underline(text)) : s.bold(text);
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(raw)) return s.dim("─".repeat(40));
    const quote = /^\s*>\s?(.*)$/.exec(raw);
    if (quote) return s.dim(`│ ${s.italic(this.inline(quote[1]!))}`);
    const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(raw);
    if (bullet) return `${bullet[1]}${s.cyan("•")} ${this.inline(bullet[2]!)}`;
    const numbered = /^(\s*)(\d+[.)])\s+(.*)$/.exec(raw);
    if (numbered) return `${numbered[1]}${s.cyan(numbered[2]!)} ${this.inline(numbered[3]!)}`;
    return this.inline(raw);
  }

  /** Inside a fenced block now (a `|` line there is code, not a table row). */
  get inCode(): boolean {
    return this.fence !== undefined;
  }

  /** Emphasis, code spans and links inside one line; code spans are left untouched inside. */
  inline(text: string): string {
    const s = this.style;
    return text
      .split(/(`[^`]+`)/)
      .map((part) => {
        if (/^`[^`]+`$/.test(part)) return s.cyan(part.slice(1, -1));
        return part
          .replace(/\*\*([^*]+)\*\*|__([^_]+)__/g, (_, a, b) => s.bold(a ?? b))
          .replace(/(^|[^*\w])\*([^*\s][^*]*)\*(?!\*)/g, (_, pre, a) => `${pre}${s.italic(a)}`)
          .replace(/(^|\W)_([^_\s][^_]*)_(?=\W|$)/g, (_, pre, a) => `${pre}${s.italic(a)}`)
          .replace(
            /\[([^\]]+)\]\(([^)\s]+)\)/g,
            (_, label, url) => `${s.underline(label)} ${s.dim(`(${url})`)}`,
          );
      })
      .join("");
  }
}
