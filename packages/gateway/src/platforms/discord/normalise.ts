// A discord.js Message or button press → the gateway's InboundMessage (SPEC G1). A thread is its
// own session (threadId) under its parent channel; the speaker is their stable user id, never a
// display name. A system message or a bot's is skipped (undefined).
import type { ButtonInteraction, Message } from "discord.js";
import type { ApprovalAction, Attachment, InboundMessage } from "../../message.js";

export const PLATFORM = "discord";

interface Bot {
  id: string;
  username: string;
}

interface Place {
  chatId: string;
  threadId?: string;
}

/** A thread's messages go to the thread; its session is the thread under its parent. */
export function placeOf(
  channel: Message["channel"] | ButtonInteraction["channel"],
  channelId: string,
): Place {
  if (channel && !channel.partial && channel.isThread() && channel.parentId)
    return { chatId: channel.parentId, threadId: channelId };
  return { chatId: channelId };
}

export function normaliseMessage(m: Message, bot: Bot): InboundMessage | undefined {
  if (m.author.bot || m.system) return undefined;
  const mention = new RegExp(`<@!?${bot.id}>`, "g");
  const mentionsBot = mention.test(m.content);
  // "<@123> hi" → "@iris hi": the runner's mention filter cuts the name off.
  const text = m.content.replace(mention, `@${bot.username}`).trim();
  const attachments: Attachment[] = [...m.attachments.values()].map((a) => ({
    kind: a.contentType?.startsWith("image/")
      ? "image"
      : a.contentType?.startsWith("audio/")
        ? "audio"
        : "file",
    name: a.name,
    url: a.url,
  }));
  if (text === "" && attachments.length === 0) return undefined;
  const replyToBot = m.reference?.messageId !== undefined && m.mentions.repliedUser?.id === bot.id;
  return {
    platform: PLATFORM,
    chatType: m.guildId ? "group" : "dm",
    ...placeOf(m.channel, m.channelId),
    userId: m.author.id,
    userName: m.author.globalName ?? m.author.username,
    // Display and user names can be changed by their owner; the id cannot.
    handle: m.author.id,
    text,
    attachments,
    messageId: m.id,
    ...(replyToBot ? { replyToBot: true } : {}),
    ...(mentionsBot ? { mentionsBot: true } : {}),
  };
}

const ANSWERS: Record<string, ApprovalAction["answer"]> = { o: "once", s: "session", d: "deny" };

/** A button's custom_id: `ap:<o|s|d>:<request id>` (at most 100 characters). */
export function approvalData(a: ApprovalAction): string {
  return `ap:${a.answer[0]}:${a.requestId}`.slice(0, 100);
}

export function parseApprovalData(data: string): ApprovalAction | undefined {
  const m = /^ap:([osd]):(.+)$/.exec(data);
  const answer = m ? ANSWERS[m[1] ?? ""] : undefined;
  return m && answer ? { requestId: m[2] ?? "", answer } : undefined;
}

export const COMMAND_OF: Record<ApprovalAction["answer"], string> = {
  once: "/approve",
  session: "/approve session",
  deny: "/deny",
};

/** A press of an approval button, as the equivalent command in the chat it was under. */
export function normalisePress(i: ButtonInteraction): InboundMessage | undefined {
  const action = parseApprovalData(i.customId);
  if (!action) return undefined;
  return {
    platform: PLATFORM,
    chatType: i.guildId ? "group" : "dm",
    ...placeOf(i.channel, i.channelId),
    userId: i.user.id,
    userName: i.user.globalName ?? i.user.username,
    handle: i.user.id,
    text: COMMAND_OF[action.answer],
    attachments: [],
    messageId: `ix:${i.id}`,
    action,
    mentionsBot: true,
  };
}
