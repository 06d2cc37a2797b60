import { describe, expect, it } from "vitest";
import { toMrkdwn } from "./mrkdwn.js";

describe("toMrkdwn", () => {
  it("turns Markdown emphasis, links and headings into mrkdwn", () => {
    expect(toMrkdwn("**bold** and *it* and ~~gone~~")).toBe("*bold* and _it_ and ~gone~");
    expect(toMrkdwn("see [docs](https://example.org/a)")).toBe("see <https://example.org/a|docs>");
    expect(toMrkdwn("## Plan\n- one\n- two")).toBe("*Plan*\n• one\n• two");
  });

  it("escapes &, < and > outside code and leaves code alone", () => {
    expect(toMrkdwn("a < b && c > d `x<y && **z**`")).toBe("a &lt; b &amp;&amp; c &gt; d `x<y && **z**`");
    expect(toMrkdwn("```\nif (a < b) **x**\n```")).toBe("```\nif (a < b) **x**\n```");
  });
});
