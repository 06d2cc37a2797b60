import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown.js";

describe("renderMarkdown", () => {
  it("escapes every HTML character before it adds tags", () => {
    const html = renderMarkdown(`<img src=x onerror="alert(1)"> & 'q'`);
    expect(html).toBe("<p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;q&#39;</p>");
  });

  it("renders code fences (escaped, with their language), inline code, bold and italics", () => {
    expect(renderMarkdown("```ts\nif (a < b) {}\n```")).toBe(
      '<pre><code class="language-ts">if (a &lt; b) {}</code></pre>',
    );
    expect(renderMarkdown("**b** *i* `x<y`")).toBe(
      "<p><strong>b</strong> <em>i</em> <code>x&lt;y</code></p>",
    );
  });

  it("keeps Markdown inside a fence literal", () => {
    expect(renderMarkdown("```\n**not bold**\n```")).toBe("<pre><code>**not bold**</code></pre>");
  });

  it("links only http(s) URLs; a javascript: link stays text", () => {
    expect(renderMarkdown("[a](https://x.test/p)")).toContain('<a href="https://x.test/p"');
    expect(renderMarkdown("[a](javascript:alert(1))")).toBe("<p>[a](javascript:alert(1))</p>");
    expect(renderMarkdown('[a](https://x.test/"onmouseover=1)')).not.toContain('"onmouseover');
  });

  it("renders lists and headings", () => {
    expect(renderMarkdown("# T\n- a\n- b\n1. c")).toBe(
      "<h3>T</h3><ul><li>a</li><li>b</li></ul><ol><li>c</li></ol>",
    );
  });

  it("is self-contained, so the page can be given its source", () => {
    const again = new Function(`return (${renderMarkdown.toString()})`)() as typeof renderMarkdown;
    expect(again("**x** <b>")).toBe(renderMarkdown("**x** <b>"));
  });
});
