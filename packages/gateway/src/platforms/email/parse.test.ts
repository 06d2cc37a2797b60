import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { bodyOf, normaliseMail, stripQuoted } from "./parse.js";

const BOT = "iris@example.test";
const mail = (head: string[], body: string) =>
  simpleParser(Buffer.from(`${head.join("\r\n")}\r\n\r\n${body}`));

describe("e-mail parsing", () => {
  it("cuts quoted history, the attribution line and the signature", () => {
    const text = [
      "Yes, Friday works.",
      "",
      "On Tue, 1 Dec 2026, Iris <iris@example.test>",
      "wrote:",
      "> When?",
      ">> Earlier",
      "",
      "-- ",
      "Min",
    ].join("\n");
    expect(stripQuoted(text)).toBe("Yes, Friday works.");
    expect(stripQuoted("Thanks\n\n-----Original Message-----\nFrom: x\nold text")).toBe("Thanks");
  });

  it("reads an HTML-only mail as text without its blockquote", async () => {
    const html =
      '<p>New <b>answer</b></p><div class="gmail_quote">On Mon x wrote:<blockquote>old</blockquote></div>';
    expect(bodyOf({ text: undefined, html })).toBe("New answer");
    const m = await mail(["From: a@example.test", `To: ${BOT}`, "Content-Type: text/html"], html);
    expect(normaliseMail(m, BOT, "<x>")?.msg.text).toBe("New answer");
  });

  it("threads by References (root), a DM with the sender, a group when others are on it", async () => {
    const m = await mail(
      [
        "From: Min <MIN@example.test>",
        `To: ${BOT}`,
        "Subject: Re: plan",
        "Message-ID: <3@x>",
        "In-Reply-To: <2@x>",
        "References: <1@x> <2@x>",
      ],
      "third",
    );
    const p = normaliseMail(m, BOT, "<fallback>");
    expect(p?.msg).toMatchObject({
      chatType: "dm",
      chatId: "min@example.test",
      threadId: "<1@x>",
      messageId: "<3@x>",
      text: "third",
    });
    expect(p?.thread).toEqual({
      subject: "Re: plan",
      inReplyTo: "<3@x>",
      references: ["<1@x>", "<2@x>", "<3@x>"],
    });
    const g = await mail(
      ["From: min@example.test", "To: jo@example.test", `Cc: ${BOT}`, "Message-ID: <4@x>"],
      "hi all",
    );
    const pg = normaliseMail(g, BOT, "<f>");
    expect(pg?.msg).toMatchObject({
      chatType: "group",
      chatId: "jo@example.test,min@example.test",
      threadId: "<4@x>",
    });
    expect(pg?.msg.mentionsBot).toBeUndefined();
  });

  it("skips the bot's own mail and automatic replies", async () => {
    expect(
      normaliseMail(await mail([`From: ${BOT}`, "To: a@example.test"], "x"), BOT, "<f>"),
    ).toBeUndefined();
    const auto = await mail(["From: a@example.test", `To: ${BOT}`, "Auto-Submitted: auto-replied"], "away");
    expect(normaliseMail(auto, BOT, "<f>")).toBeUndefined();
  });
});
