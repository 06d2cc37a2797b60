// A Mattermost post → the gateway's InboundMessage (SPEC G1). A `posted` event carries the post as
// a JSON string (`data.post`) and, when someone is mentioned, their ids as a JSON string
// (`data.mentions`); a post fetched over REST (after a restart or a lost connection) is the same
// post without them. Direct channels (D) are DMs; open, private and group channels are groups,
// where a post that starts no thread is the root of the thread the reply goes to, so each
// conversation in a channel stays in its thread (root_id): a thread is its own session. The
// message id is the post id, which a repeated event and the REST catch-up share. The bot's own
// posts, other bots' and webhooks' posts, system messages and deleted posts are skipped.
import { z } from "zod";
import type { InboundMessage } from "../../message.js";

export const PLATFORM = "mattermost";

const fileInfo = z.object({
  id: z.string(),
  name: z.string(),
  mime_type: z.string().default(""),
  size: z.number().default(0),
});
export type FileInfo = z.output<typeof fileInfo>;

export const postSchema = z.object({
  id: z.string().min(1),
  create_at: z.number(),
  delete_at: z.number().default(0),
  user_id: z.string().min(1),
  channel_id: z.string().min(1),
  root_id: z.string().default(""),
  message: z.string().default(""),
  type: z.string().default(""),
  props: z.record(z.string(), z.unknown()).nullish(),
  metadata: z.object({ files: z.array(fileInfo).nullish() }).nullish(),
});
export type Post = z.output<typeof postSchema>;

/** A `posted` event's data (the fields used). */
export const postedSchema = z.object({
  channel_type: z.string(),
  post: z.string(),
  mentions: z.string().optional(),
});

export interface Bot {
  id: string;
  username: string;
}

/** The post of a `posted` event and who it mentions; undefined when the data is not one. */
export function parsePosted(
  data: unknown,
): { post: Post; channelType: string; mentions: string[] } | undefined {
  const d = postedSchema.safeParse(data);
  if (!d.success) return undefined;
  const post = postSchema.safeParse(safeJson(d.data.post));
  if (!post.success) return undefined;
  const mentions = z.array(z.string()).safeParse(safeJson(d.data.mentions ?? "[]"));
  return {
    post: post.data,
    channelType: d.data.channel_type,
    mentions: mentions.success ? mentions.data : [],
  };
}

/** Whether the post is one the bot should look at at all. */
export function isForBot(post: Post, bot: Bot): boolean {
  const fromBot = post.props?.from_bot === "true" || post.props?.from_webhook === "true";
  return (
    post.user_id !== bot.id &&
    !fromBot &&
    post.type === "" &&
    post.delete_at === 0 &&
    (post.message.trim() !== "" || (post.metadata?.files?.length ?? 0) > 0)
  );
}

export function normalisePost(
  post: Post,
  channelType: string,
  bot: Bot,
  sender: { username: string },
  mentions: readonly string[] = [],
): InboundMessage {
  const dm = channelType === "D";
  const threadId = post.root_id !== "" ? post.root_id : dm ? undefined : post.id;
  const name = bot.username.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const mentionsBot =
    mentions.includes(bot.id) || new RegExp(`(^|[^a-z0-9_])@${name}(?![a-z0-9_-])`, "i").test(post.message);
  return {
    platform: PLATFORM,
    chatType: dm ? "dm" : "group",
    chatId: post.channel_id,
    ...(threadId ? { threadId } : {}),
    userId: post.user_id,
    userName: sender.username,
    handle: `@${sender.username}`,
    text: post.message.trim(),
    attachments: [],
    messageId: post.id,
    ...(mentionsBot && !dm ? { mentionsBot: true } : {}),
  };
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}
