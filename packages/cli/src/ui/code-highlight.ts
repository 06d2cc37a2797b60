// Syntax colours for fenced code blocks in the chat (SPEC E1), from highlight.js (the maintained
// highlighter; only the common languages are registered, so loading it stays cheap). The answer
// streams a line at a time: each new line re-highlights the block so far (a multi-line comment or
// string keeps its colour), and the line's colours are made self-contained so that it can be drawn
// on its own. Blocks past MAX_LINES, or in a language not registered, are shown in one colour.
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const LANGUAGES = {
  bash,
  c,
  cpp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);

/** Re-highlighting a block for every line costs its length squared: long blocks get one colour. */
const MAX_LINES = 400;

/** SGR codes by highlight.js scope (its first class name). */
const SCOPE_COLOURS: Record<string, string> = {
  keyword: "35",
  "selector-tag": "35",
  doctag: "35",
  string: "32",
  regexp: "32",
  addition: "32",
  "template-tag": "32",
  number: "33",
  literal: "33",
  symbol: "33",
  bullet: "33",
  attr: "33",
  attribute: "33",
  comment: "90",
  quote: "90",
  meta: "90",
  title: "34",
  section: "34",
  name: "34",
  built_in: "36",
  type: "36",
  class: "36",
  variable: "31",
  "template-variable": "31",
  deletion: "31",
};

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'" };
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, e: string) => ENTITIES[e] ?? _);

/** highlight.js's HTML as terminal lines, each opening the colours it is inside and resetting at its end. */
export function htmlToAnsiLines(html: string): string[] {
  const lines: string[] = [];
  const stack: string[] = [];
  const open = () =>
    stack
      .filter(Boolean)
      .map((code) => `\u001b[${code}m`)
      .join("");
  let line = "";
  const endLine = () => {
    lines.push(stack.some(Boolean) ? `${line}\u001b[0m` : line);
    line = open();
  };
  for (const token of html.split(/(<span class="[^"]*">|<\/span>)/)) {
    if (token.startsWith("<span")) {
      const scope = /class="hljs-([\w-]+)/.exec(token)?.[1] ?? "";
      const code = SCOPE_COLOURS[scope] ?? "";
      stack.push(code);
      if (code) line += `\u001b[${code}m`;
    } else if (token === "</span>") {
      if (stack.pop()) line += `\u001b[0m${open()}`;
    } else {
      const parts = decode(token).split("\n");
      parts.forEach((part, i) => {
        if (i > 0) endLine();
        line += part;
      });
    }
  }
  lines.push(stack.some(Boolean) ? `${line}\u001b[0m` : line);
  return lines;
}

/** One fenced block being streamed. */
export class CodeBlock {
  private readonly source: string[] = [];
  private readonly language: string | undefined;

  /** `info`: what follows the opening fence (```ts → "ts"). */
  constructor(info: string) {
    const name = info.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
    this.language = name && hljs.getLanguage(name) ? name : undefined;
  }

  /** The colours of `line`, the block's next line; undefined when it gets the plain code colour. */
  add(line: string): string | undefined {
    this.source.push(line);
    if (!this.language || this.source.length > MAX_LINES) return undefined;
    const html = hljs.highlight(this.source.join("\n"), {
      language: this.language,
      ignoreIllegals: true,
    }).value;
    return htmlToAnsiLines(html).at(-1);
  }
}
