import { describe, expect, it } from "vitest";
import type { InboundMessage } from "../message.js";
import { filterMention } from "./mention.js";

const msg = (text: string, extra: Partial<InboundMessage> = {}): InboundMessage => ({
  platform: "irc",
  chatType: "group",
  chatId: "#c",
  userId: "ann",
  userName: "ann",
  text,
  attachments: [],
  messageId: "1",
  ...extra,
});
const policy = { requireMention: true, wakeWords: ["hey iris"] };

describe("filterMention", () => {
  it("answers every DM", () => {
    expect(filterMention(msg("hi", { chatType: "dm" }), ["irisbot"], policy)).toEqual({
      addressed: true,
      text: "hi",
    });
  });
  it("in a group answers only when named as a whole word, and cuts the leading mention", () => {
    expect(filterMention(msg("hello all"), ["irisbot"], policy).addressed).toBe(false);
    expect(filterMention(msg("irisbotty is not me"), ["irisbot"], policy).addressed).toBe(false);
    expect(filterMention(msg("IrisBot: what time is it?"), ["irisbot"], policy)).toEqual({
      addressed: true,
      text: "what time is it?",
    });
    expect(filterMention(msg("ask @irisbot later"), ["irisbot"], policy).addressed).toBe(true);
  });
  it("counts wake words, replies to the bot and platform mentions, in threads too", () => {
    expect(filterMention(msg("hey iris, status?"), ["irisbot"], policy).addressed).toBe(true);
    expect(
      filterMention(msg("yes", { replyToBot: true, threadId: "t1" }), ["irisbot"], policy).addressed,
    ).toBe(true);
    expect(filterMention(msg("yes", { threadId: "t1" }), ["irisbot"], policy).addressed).toBe(false);
    expect(filterMention(msg("x", { mentionsBot: true }), ["irisbot"], policy).addressed).toBe(true);
  });
  it("answers everything in groups when require_mention is off", () => {
    expect(filterMention(msg("hello"), ["irisbot"], { requireMention: false, wakeWords: [] }).addressed).toBe(
      true,
    );
  });
});
