import { describe, expect, it } from "vitest";
import { isForBot, normalisePost, parsePosted } from "./normalise.js";

const BOT = { id: "b".repeat(26), username: "iris" };
const MIN = "m".repeat(26);
const post = (extra: Record<string, unknown> = {}) => ({
  id: "p".repeat(26),
  create_at: 1000,
  delete_at: 0,
  user_id: MIN,
  channel_id: "c".repeat(26),
  root_id: "",
  message: "hello",
  type: "",
  props: {},
  ...extra,
});

describe("mattermost posts", () => {
  it("reads a posted event's post and mentions, both JSON strings", () => {
    const got = parsePosted({
      channel_type: "O",
      post: JSON.stringify(post()),
      mentions: JSON.stringify([BOT.id]),
    });
    expect(got?.channelType).toBe("O");
    expect(got?.mentions).toEqual([BOT.id]);
    expect(got?.post.message).toBe("hello");
    expect(parsePosted({ channel_type: "O", post: "{not json" })).toBeUndefined();
    expect(parsePosted({ channel_type: "O", post: { id: "x" } })).toBeUndefined();
  });

  it("skips the bot's own posts, other bots', webhooks', system messages and deleted posts", () => {
    const p = (extra: Record<string, unknown>) =>
      parsePosted({ channel_type: "D", post: JSON.stringify(post(extra)) });
    const of = (extra: Record<string, unknown>) => {
      const got = p(extra);
      return got ? isForBot(got.post, BOT) : undefined;
    };
    expect(of({})).toBe(true);
    expect(of({ user_id: BOT.id })).toBe(false);
    expect(of({ props: { from_bot: "true" } })).toBe(false);
    expect(of({ props: { from_webhook: "true" } })).toBe(false);
    expect(of({ type: "system_join_channel" })).toBe(false);
    expect(of({ delete_at: 5 })).toBe(false);
    expect(of({ message: "  " })).toBe(false);
  });

  it("a DM keys on its channel; a channel post is its own thread's root; a reply keeps its root", () => {
    const parsed = (extra: Record<string, unknown>, type: string) =>
      normalisePost(
        parsePosted({ channel_type: type, post: JSON.stringify(post(extra)) })?.post as never,
        type,
        BOT,
        {
          username: "min",
        },
      );
    expect(parsed({}, "D")).toMatchObject({ chatType: "dm", handle: "@min", messageId: "p".repeat(26) });
    expect(parsed({}, "D").threadId).toBeUndefined();
    expect(parsed({}, "O")).toMatchObject({ chatType: "group", threadId: "p".repeat(26) });
    expect(parsed({ root_id: "r".repeat(26) }, "P")).toMatchObject({ threadId: "r".repeat(26) });
    expect(parsed({ message: "@iris look" }, "O").mentionsBot).toBe(true);
    expect(parsed({ message: "@irising look" }, "O").mentionsBot).toBeUndefined();
  });
});
