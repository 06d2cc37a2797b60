import { describe, expect, it } from "vitest";
import type { InboundMessage } from "../message.js";
import { mergeSpoken } from "./merge.js";
import { chatIdOfKey, sessionKey } from "./session-key.js";

const msg = (extra: Partial<InboundMessage>): InboundMessage => ({
  platform: "irc",
  chatType: "group",
  chatId: "#c",
  userId: "ann",
  userName: "ann",
  text: "x",
  attachments: [],
  messageId: "1",
  ...extra,
});

describe("sessionKey", () => {
  it("is platform:chat_type:chat_id[:thread][:user]", () => {
    expect(sessionKey(msg({}), "shared")).toBe("irc:group:#c");
    expect(sessionKey(msg({ threadId: "t9" }), "shared")).toBe("irc:group:#c:t9");
    expect(sessionKey(msg({ threadId: "t9" }), "per_user")).toBe("irc:group:#c:t9:ann");
    expect(sessionKey(msg({ chatType: "dm", chatId: "ann" }), "per_user")).toBe("irc:dm:ann");
  });
  it("keys a DM on the speaker too where their id is not the chat's: a borrowed nick is another chat", () => {
    const owner = sessionKey(msg({ chatType: "dm", chatId: "bob", userId: "bob!~bob@h" }), "shared");
    const other = sessionKey(msg({ chatType: "dm", chatId: "bob", userId: "bob!~eve@h" }), "shared");
    expect(owner).toBe("irc:dm:bob:bob!~bob@h");
    expect(other).not.toBe(owner);
    expect(chatIdOfKey(other)).toBe("bob");
  });
  it("keeps threads and chats apart, and a ':' in an id cannot forge another key", () => {
    const a = sessionKey(msg({ chatId: "a:b" }), "shared");
    const b = sessionKey(msg({ chatId: "a", threadId: "b" }), "shared");
    expect(a).not.toBe(b);
  });
  it("gives back the chat id of a key, escapes undone", () => {
    for (const chatId of ["#c", "a:b", "50%:off", "ann"])
      expect(chatIdOfKey(sessionKey(msg({ chatId, threadId: "t:1" }), "per_user"))).toBe(chatId);
    expect(chatIdOfKey("irc")).toBeUndefined();
  });
});

describe("mergeSpoken", () => {
  it("merges several speakers into one turn with their names", () => {
    expect(
      mergeSpoken(
        [
          { userName: "ann", text: "hi" },
          { userName: "bob", text: "and me" },
        ],
        true,
      ),
    ).toBe("[ann] hi\n[bob] and me");
  });
  it("a DM with one speaker is plain text", () => {
    expect(
      mergeSpoken(
        [
          { userName: "ann", text: "a" },
          { userName: "ann", text: "b" },
        ],
        false,
      ),
    ).toBe("a\nb");
  });
});
