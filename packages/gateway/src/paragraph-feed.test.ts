import { describe, expect, it } from "vitest";
import { ParagraphFeed } from "./paragraph-feed.js";

function feed() {
  const sent: string[] = [];
  return { sent, f: new ParagraphFeed(async (_n, t) => void sent.push(t)) };
}

describe("ParagraphFeed", () => {
  it("delivers each paragraph once it is finished, never inside a fence, and the rest at the end", async () => {
    const { sent, f } = feed();
    for (const piece of ["## Ti", "tle\n\nFirst para", "graph.\n", "\n```\ncode\n\nmore\n", "```\n\nLast"])
      f.append(piece);
    await Promise.resolve();
    const rest = await f.rest("## Title\n\nFirst paragraph.\n\n```\ncode\n\nmore\n```\n\nLast");
    expect(sent).toEqual(["## Title", "First paragraph.", "```\ncode\n\nmore\n```"]);
    expect(rest).toEqual({ text: "Last", streamed: true });
  });

  it("after a retry discarded shown text, the final answer goes whole", async () => {
    const { sent, f } = feed();
    f.append("One.\n\nTw");
    f.reset();
    f.append("Another one.\n\n");
    expect(await f.rest("Another one.")).toEqual({ text: "Another one.", streamed: false });
    expect(sent).toEqual(["One."]);
  });

  it("says when everything was streamed already", async () => {
    const { f } = feed();
    f.append("Only.\n\n");
    expect(await f.rest("Only.")).toEqual({ text: "", streamed: true });
  });

  it("numbers paragraphs by round of the turn, counting on from the rounds a continued turn kept", async () => {
    const parts: string[] = [];
    const f = new ParagraphFeed(async ({ round, index }, t) => void parts.push(`r${round}p${index} ${t}`), 1);
    f.nextRound();
    f.append("Found it.\n\n");
    f.append("More.\n\n");
    f.nextRound();
    f.append("Next round.\n\n");
    await f.rest("Next round.");
    expect(parts).toEqual(["r2p0 Found it.", "r2p1 More.", "r3p0 Next round."]);
  });
});
