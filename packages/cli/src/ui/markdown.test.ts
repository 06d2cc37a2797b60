import { describe, expect, it } from "vitest";
import { colorsWanted, makeStyle } from "./colors.js";
import { MarkdownLines } from "./markdown.js";

const ESC = "\u001b";

describe("markdown lines", () => {
  it("styles headings, emphasis, code spans, lists and fenced code", () => {
    const md = new MarkdownLines(makeStyle(true));
    expect(md.line("# Title")).toBe(`${ESC}[1m${ESC}[4mTitle${ESC}[24m${ESC}[22m`);
    expect(md.line("some **bold** and *soft* and `x*y*`")).toBe(
      `some ${ESC}[1mbold${ESC}[22m and ${ESC}[3msoft${ESC}[23m and ${ESC}[36mx*y*${ESC}[39m`,
    );
    expect(md.line("- item")).toBe(`${ESC}[36m•${ESC}[39m item`);
    expect(md.line("```ts")).toContain("```ts");
    // In the block's language's colours (highlight.js), Markdown inside left alone.
    expect(md.line("const a = **b**;")).toBe(`${ESC}[35mconst${ESC}[0m a = **b**;`);
    md.line("```");
    expect(md.line("after")).toBe("after");
    md.line("```");
    expect(md.line("plain *code*")).toBe(`${ESC}[36mplain *code*${ESC}[39m`);
    md.line("```");
  });

  it("keeps a multi-line comment's colour on each of its lines, each line closing its colours", () => {
    const md = new MarkdownLines(makeStyle(true));
    md.line("```python");
    expect(md.line('s = """one')).toBe(`s = ${ESC}[32m"""one${ESC}[0m`);
    expect(md.line('two"""')).toBe(`${ESC}[32mtwo"""${ESC}[0m`);
    expect(md.line("def f(x): return 1")).toContain(`${ESC}[35mdef${ESC}[0m`);
    expect(md.line("def f(x): return 1")).toContain(`${ESC}[33m1${ESC}[0m`);
  });

  it("leaves the text alone without colours", () => {
    const md = new MarkdownLines(makeStyle(false));
    expect(md.line("# Title **x**")).toBe("# Title **x**");
  });

  it("turns colours off for NO_COLOR, dumb terminals and pipes", () => {
    expect(colorsWanted({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(colorsWanted({ isTTY: true }, { TERM: "dumb" })).toBe(false);
    expect(colorsWanted({ isTTY: false }, {})).toBe(false);
    expect(colorsWanted({ isTTY: true }, {})).toBe(true);
    expect(colorsWanted({ isTTY: false }, { FORCE_COLOR: "1" })).toBe(true);
  });
});
