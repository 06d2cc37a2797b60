// A Telegram update → the gateway's InboundMessage (SPEC G1). Forum topics are their own
// threads; a reply thread in an ordinary group is not (its message_thread_id would split one
// group into many sessions). A malformed update gives undefined and is skipped.
import type { ApprovalAction, Attachment, InboundMessage } from "../../message.js";

export const PLATFORM = "telegram";

interface Bot {
  id: number;
  username: string;
}

/** The fields read here, as optional as the Bot API leaves them. */
export interface TgMessageLike {
  message_id?: unknown;
  chat?: { id?: unknown; type?: unknown };
  from?: { id?: unknown; username?: unknown; first_name?: unknown; is_bot?: unknown };
  message_thread_id?: unknown;
  is_topic_message?: unknown;
  text?: unknown;
  caption?: unknown;
  entities?: { type?: unknown; offset?: unknown; length?: unknown }[];
  caption_entities?: { type?: unknown; offset?: unknown; length?: unknown }[];
  reply_to_message?: { from?: { id?: unknown } };
  photo?: { file_id?: unknown; file_size?: unknown }[];
  document?: { file_id?: unknown; file_name?: unknown; mime_type?: unknown };
  voice?: { file_id?: unknown };
}

const isId = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v);

/** The message's text, its chat and sender, or undefined when it lacks one. */
export function normaliseMessage(m: TgMessageLike, bot: Bot): InboundMessage | undefined {
  const chat = m.chat;
  const from = m.from;
  if (!isId(m.message_id) || !chat || !isId(chat.id) || !from || !isId(from.id)) return undefined;
  if (from.is_bot === true) return undefined;
  const type = chat.type;
  if (type !== "private" && type !== "group" && type !== "supergroup") return undefined; // channels
  const raw = typeof m.text === "string" ? m.text : typeof m.caption === "string" ? m.caption : "";
  const attachments = attachmentsOf(m);
  if (raw === "" && attachments.length === 0) return undefined;
  const entities = (typeof m.text === "string" ? m.entities : m.caption_entities) ?? [];
  const handle = `@${bot.username}`.toLowerCase();
  const mentionsBot = entities.some(
    (e) =>
      e.type === "mention" &&
      typeof e.offset === "number" &&
      typeof e.length === "number" &&
      raw.slice(e.offset, e.offset + e.length).toLowerCase() === handle,
  );
  const topic = m.is_topic_message === true && isId(m.message_thread_id);
  const username = typeof from.username === "string" ? from.username : undefined;
  const first = typeof from.first_name === "string" ? from.first_name : String(from.id);
  return {
    platform: PLATFORM,
    chatType: type === "private" ? "dm" : "group",
    chatId: String(chat.id),
    ...(topic ? { threadId: String(m.message_thread_id) } : {}),
    userId: String(from.id),
    userName: username ? `@${username}` : first,
    // A first name is free-form (anyone may call themselves "@ann" or "12345"): never an allowlist name.
    handle: username ? `@${username}` : String(from.id),
    text: commandWithoutBotName(raw, bot.username),
    attachments,
    messageId: `${chat.id}:${m.message_id}`,
    ...(m.reply_to_message?.from?.id === bot.id ? { replyToBot: true } : {}),
    ...(mentionsBot ? { mentionsBot: true } : {}),
  };
}

/** "/status@iris_bot now" → "/status now" (how commands arrive in groups). */
function commandWithoutBotName(text: string, username: string): string {
  const m = /^(\/[A-Za-z0-9_]+)@([A-Za-z0-9_]+)/.exec(text);
  return m && m[2]?.toLowerCase() === username.toLowerCase() ? `${m[1]}${text.slice(m[0].length)}` : text;
}

/** The file id an attachment's url carries until the adapter downloads it. */
export const FILE_URL = "tg-file:";

/** Photos (the largest size), documents and voice notes. */
function attachmentsOf(m: TgMessageLike): Attachment[] {
  const out: Attachment[] = [];
  const photo = Array.isArray(m.photo) ? m.photo.at(-1) : undefined;
  if (photo && typeof photo.file_id === "string")
    out.push({ kind: "image", name: `photo-${m.message_id}.jpg`, url: FILE_URL + photo.file_id });
  const doc = m.document;
  if (doc && typeof doc.file_id === "string") {
    const name =
      typeof doc.file_name === "string" && doc.file_name ? doc.file_name : `document-${m.message_id}`;
    const image = typeof doc.mime_type === "string" && doc.mime_type.startsWith("image/");
    out.push({ kind: image ? "image" : "file", name, url: FILE_URL + doc.file_id });
  }
  if (m.voice && typeof m.voice.file_id === "string")
    out.push({ kind: "audio", name: `voice-${m.message_id}.ogg`, url: FILE_URL + m.voice.file_id });
  return out;
}

const ANSWERS: Record<string, ApprovalAction["answer"]> = { o: "once", s: "session", d: "deny" };

/** Callback data of an approval button: `ap:<o|s|d>:<request id>` (at most 64 bytes). */
export function approvalData(a: ApprovalAction): string {
  return `ap:${a.answer[0]}:${a.requestId}`.slice(0, 64);
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
