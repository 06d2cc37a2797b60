// What a signal-cli receive event becomes: DMs and group messages by author:timestamp, the
// owner's linked-device messages only in groups and Note to Self, mentions of the account, and
// nothing for receipts, typing or an empty message.
import { describe, expect, it } from "vitest";
import { normaliseEvent } from "./normalise.js";

const SELF = { account: "+15550000001" };
const MIN = {
  source: "+821012345678",
  sourceNumber: "+821012345678",
  sourceUuid: "u-min",
  sourceName: "Min",
};
const owner = { source: SELF.account, sourceNumber: SELF.account, sourceUuid: "u-bot" };
const ev = (envelope: Record<string, unknown>) => ({
  envelope: { timestamp: 5, ...envelope },
  account: SELF.account,
});

describe("normaliseEvent", () => {
  it("reads a DM and a group message, ids author:timestamp", () => {
    const dm = normaliseEvent(ev({ ...MIN, dataMessage: { timestamp: 7, message: "hi" } }), SELF);
    expect(dm?.msg).toMatchObject({
      chatType: "dm",
      chatId: MIN.source,
      userId: MIN.source,
      handle: "u-min",
    });
    expect(dm?.msg.messageId).toBe("u-min:7");
    expect(dm?.conversation).toEqual({ recipient: [MIN.source] });
    const g = normaliseEvent(
      ev({ ...MIN, dataMessage: { timestamp: 8, message: "yo", groupInfo: { groupId: "G=" } } }),
      SELF,
    );
    expect(g?.msg).toMatchObject({ chatType: "group", chatId: "group.G=" });
    expect(g?.conversation).toEqual({ groupId: "G=" });
  });

  it("takes the owner's linked-device messages in groups and Note to Self only", () => {
    const sent = (extra: Record<string, unknown>) =>
      normaliseEvent(
        ev({ ...owner, syncMessage: { sentMessage: { timestamp: 9, message: "x", ...extra } } }),
        SELF,
      );
    expect(sent({ groupInfo: { groupId: "G=" } })?.msg).toMatchObject({
      chatId: "group.G=",
      userId: SELF.account,
    });
    expect(sent({ destinationNumber: SELF.account })?.msg).toMatchObject({
      chatType: "dm",
      chatId: SELF.account,
    });
    expect(sent({ destinationNumber: MIN.source })).toBeUndefined();
    expect(sent({ groupInfo: { groupId: "G=" } })?.fromOwner).toBe(true);
  });

  it("marks a mention of the account and skips what is no message", () => {
    const m = normaliseEvent(
      ev({
        ...MIN,
        dataMessage: { timestamp: 3, message: "\uFFFC hello", mentions: [{ number: SELF.account }] },
      }),
      SELF,
    );
    expect(m?.msg).toMatchObject({ mentionsBot: true, text: "@you hello" });
    expect(normaliseEvent(ev({ ...MIN, receiptMessage: { isRead: true } }), SELF)).toBeUndefined();
    expect(normaliseEvent(ev({ ...MIN, dataMessage: { timestamp: 4, message: "" } }), SELF)).toBeUndefined();
    expect(normaliseEvent({ nope: 1 }, SELF)).toBeUndefined();
  });

  it("names attachments by kind: images, voice notes, files", () => {
    const a = normaliseEvent(
      ev({
        ...MIN,
        dataMessage: {
          timestamp: 6,
          attachments: [
            { id: "a1.png", contentType: "image/png" },
            { id: "a2.m4a", contentType: "audio/aac", voiceNote: true },
            { id: "a3.pdf", contentType: "application/pdf", filename: "r.pdf" },
          ],
        },
      }),
      SELF,
    );
    expect(a?.msg.attachments.map((x) => x.kind)).toEqual(["image", "audio", "file"]);
    expect(a?.msg.attachments[2]?.name).toBe("r.pdf");
    expect(a?.files.map((f) => f.id)).toEqual(["a1.png", "a2.m4a", "a3.pdf"]);
  });
});
