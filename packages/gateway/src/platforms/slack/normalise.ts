// A Slack event or button press → the gateway's InboundMessage (SPEC G1). A thread is its own
// session (threadId = the parent's ts); a channel message that starts no thread yet is the root
// of the thread the reply goes to, so each conversation in a channel stays in its thread. The
// message id is channel:ts, which a redelivery (same event_id) and the `app_mention` twin of a
// `message` event share: the runner's inbound ledger claims it once, across restarts too. The
// speaker is their member id; bots' messages, edits and other subtypes are skipped (undefined). A
// `file_share` message's files are its attachments (their private download URLs, fetched later).
import type { ApprovalAction, Attachment, InboundMessage } from "../../message.js";

export const PLATFORM = "slack";

interface Bot {
  userId: string;
  name: string;
}

export interface SlackMessageEvent {
  type?: string;
  subtype?: string;
  bot_id?: string;
  channel?: string;
  channel_type?: string;
  user?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  files?: { name?: string; title?: string; mimetype?: string; url_private_download?: string }[];
}

const SUBTYPES = new Set([undefined, "thread_broadcast", "file_share"]);

function attachmentsOf(e: SlackMessageEvent): Attachment[] {
  return (e.files ?? [])
    .filter((f) => typeof f.url_private_download === "string")
    .map((f) => ({
      kind: f.mimetype?.startsWith("image/") ? "image" : f.mimetype?.startsWith("audio/") ? "audio" : "file",
      name: f.name ?? f.title ?? "file",
      url: f.url_private_download,
    }));
}

export function normaliseEvent(e: SlackMessageEvent, bot: Bot): InboundMessage | undefined {
  if (!SUBTYPES.has(e.subtype)) return undefined;
  if (e.bot_id || !e.user || e.user === bot.userId || !e.channel || !e.ts) return undefined;
  const mention = new RegExp(`<@${bot.userId}(\\|[^>]*)?>`, "g");
  const raw = e.text ?? "";
  const mentionsBot = e.type === "app_mention" || mention.test(raw);
  // "<@U0BOT> hi" → "@iris hi": the runner's mention filter cuts the name off.
  const text = unescapeControl(raw.replace(mention, `@${bot.name}`)).trim();
  const attachments = attachmentsOf(e);
  if (text === "" && attachments.length === 0) return undefined;
  const dm = e.channel_type === "im" || (e.channel_type === undefined && e.channel.startsWith("D"));
  const threadId = e.thread_ts ?? (dm ? undefined : e.ts);
  return {
    platform: PLATFORM,
    chatType: dm ? "dm" : "group",
    chatId: e.channel,
    ...(threadId ? { threadId } : {}),
    userId: e.user,
    userName: e.user,
    handle: e.user,
    text,
    attachments,
    messageId: `${e.channel}:${e.ts}`,
    ...(mentionsBot ? { mentionsBot: true } : {}),
  };
}

/** Slack escapes &, < and > in message text. */
function unescapeControl(s: string): string {
  return s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

const ANSWERS: Record<string, ApprovalAction["answer"]> = { o: "once", s: "session", d: "deny" };

/** A button's action_id: `ap:<o|s|d>:<request id>` (at most 255 characters). */
export function approvalData(a: ApprovalAction): string {
  return `ap:${a.answer[0]}:${a.requestId}`.slice(0, 255);
}

export function parseApprovalData(data: string): ApprovalAction | undefined {
  const m = /^ap:([osd]):(.+)$/.exec(data);
  const answer = m ? ANSWERS[m[1] ?? ""] : undefined;
  return m && answer ? { requestId: m[2] ?? "", answer } : undefined;
}

const COMMAND_OF: Record<ApprovalAction["answer"], string> = {
  once: "/approve",
  session: "/approve session",
  deny: "/deny",
};

export interface BlockActionsBody {
  trigger_id?: string;
  user?: { id?: string; username?: string; name?: string };
  channel?: { id?: string };
  container?: { channel_id?: string; message_ts?: string; thread_ts?: string };
  message?: { ts?: string; thread_ts?: string };
  actions?: { action_id?: string; action_ts?: string }[];
}

/** A press of an approval button, as the equivalent command in the thread it was under. */
export function normalisePress(body: BlockActionsBody): InboundMessage | undefined {
  const act = body.actions?.[0];
  const action = act?.action_id ? parseApprovalData(act.action_id) : undefined;
  const channel = body.channel?.id ?? body.container?.channel_id;
  const user = body.user?.id;
  if (!action || !channel || !user) return undefined;
  const threadId = body.message?.thread_ts ?? body.container?.thread_ts;
  const dm = channel.startsWith("D");
  return {
    platform: PLATFORM,
    chatType: dm ? "dm" : "group",
    chatId: channel,
    ...(threadId ? { threadId } : {}),
    userId: user,
    userName: body.user?.username ?? body.user?.name ?? user,
    handle: user,
    text: COMMAND_OF[action.answer],
    attachments: [],
    messageId: `act:${body.trigger_id ?? `${channel}:${body.container?.message_ts}:${act?.action_ts}`}`,
    action,
    mentionsBot: true,
  };
}
