import { describe, expect, it } from "vitest";
import { markdownToIrc } from "./irc-format.js";

describe("markdownToIrc", () => {
  it("turns headings, bold, emphasis, code, links and bullets into IRC codes and plain text", () => {
    const md = [
      "## Plan",
      "",
      "Use **bold** and *soft* words, `npm test`, and [the docs](https://x.test/d).",
      "- first",
      "* second",
      "---",
      "```sh",
      "echo **not bold**",
      "```",
    ].join("\n");
    expect(markdownToIrc(md)).toBe(
      [
        "\x02Plan\x02",
        "",
        "Use \x02bold\x02 and \x1Dsoft\x1D words, \x11npm test\x11, and the docs <https://x.test/d>.",
        "• first",
        "• second",
        "echo **not bold**",
      ].join("\n"),
    );
  });

  it("leaves snake_case, 2*3*4 and plain text alone", () => {
    expect(markdownToIrc("snake_case_name and 2*3*4 stay")).toBe("snake_case_name and 2*3*4 stay");
  });
});
