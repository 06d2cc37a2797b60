// The Bot API methods of the fake Telegram server, as strict as Telegram's: every parameter the
// adapter sends is checked, with Telegram's own error descriptions (a 400 "Bad Request: …").
import { fileParam } from "./multipart.js";
import type { TgBotMessage, TgChat, TgMessage } from "./types.js";

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: Record<string, unknown>,
  ) {
    super(description);
  }
}

export const bad = (what: string) => new ApiError(400, `Bad Request: ${what}`);

export const MAX_TEXT = 4096;
const MAX_CAPTION = 1024;
const MAX_UPLOAD = 50 * 1024 * 1024;
const MAX_PHOTO = 10 * 1024 * 1024;
const ACTIONS = new Set([
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
]);

export interface MethodState {
  chats: Map<number, TgChat & { topics: Set<number> }>;
  botMessages: Map<string, TgBotMessage>;
  nextMessageId(chatId: number): number;
  botUser: { id: number; first_name: string; username: string };
  callbacks: Map<string, { answered: boolean }>;
  commands: { command: string; description: string }[];
  files: Map<string, { path: string; bytes: Buffer }>;
}

function chatOf(s: MethodState, p: Record<string, unknown>) {
  const raw = p.chat_id;
  if (raw === undefined) throw bad("chat_id is empty");
  const id = typeof raw === "string" && /^-?\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof id !== "number") throw bad("chat not found");
  const chat = s.chats.get(id);
  if (!chat) throw bad("chat not found");
  return chat;
}

function threadOf(chat: TgChat & { topics: Set<number> }, p: Record<string, unknown>): number | undefined {
  // A multipart upload's fields are text: Telegram reads a number from them.
  const raw = p.message_thread_id;
  const t = typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (t === undefined) return undefined;
  if (typeof t !== "number" || !Number.isInteger(t)) throw bad("invalid message_thread_id");
  if (!chat.is_forum || !chat.topics.has(t)) throw bad("message thread not found");
  return t;
}

function textOf(p: Record<string, unknown>): string {
  const text = p.text;
  if (typeof text !== "string" || text.trim() === "") throw bad("message text is empty");
  if (text.length > MAX_TEXT) throw bad("message is too long");
  const mode = p.parse_mode;
  if (mode !== undefined && mode !== "HTML" && mode !== "MarkdownV2" && mode !== "Markdown")
    throw bad(`unsupported parse_mode "${String(mode)}"`);
  return text;
}

function buttonsOf(p: Record<string, unknown>): { text: string; data: string }[] {
  const markup = p.reply_markup;
  if (markup === undefined) return [];
  const rows = (markup as { inline_keyboard?: unknown }).inline_keyboard;
  if (!Array.isArray(rows)) throw bad("can't parse reply keyboard markup JSON object");
  const out: { text: string; data: string }[] = [];
  for (const row of rows) {
    if (!Array.isArray(row))
      throw bad('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays');
    for (const b of row as { text?: unknown; callback_data?: unknown }[]) {
      if (typeof b.text !== "string" || b.text === "")
        throw bad("text buttons are unallowed in the inline keyboard");
      if (
        typeof b.callback_data !== "string" ||
        Buffer.byteLength(b.callback_data) > 64 ||
        b.callback_data === ""
      )
        throw bad("BUTTON_DATA_INVALID");
      out.push({ text: b.text, data: b.callback_data });
    }
  }
  return out;
}

const keyOf = (chatId: number, messageId: number) => `${chatId}:${messageId}`;

function publicMessage(s: MethodState, m: TgBotMessage, chat: TgChat): TgMessage {
  return {
    message_id: m.messageId,
    date: Math.floor(Date.now() / 1000),
    chat: { id: chat.id, type: chat.type, ...(chat.title ? { title: chat.title } : {}) },
    from: { ...s.botUser, is_bot: true },
    ...(m.threadId !== undefined ? { message_thread_id: m.threadId, is_topic_message: true } : {}),
    text: m.texts.at(-1) ?? "",
    ...(m.buttons.length
      ? {
          reply_markup: {
            inline_keyboard: [m.buttons.map((b) => ({ text: b.text, callback_data: b.data }))],
          },
        }
      : {}),
  };
}

/** A new message of the bot in the chat (and topic) `p` names, with `text` and `fields`. */
function postBotMessage(
  s: MethodState,
  p: Record<string, unknown>,
  text: (p: Record<string, unknown>) => string,
  fields: Partial<TgBotMessage> = {},
): TgMessage {
  const chat = chatOf(s, p);
  const threadId = threadOf(chat, p);
  const m: TgBotMessage = {
    chatId: chat.id,
    messageId: s.nextMessageId(chat.id),
    ...(threadId !== undefined ? { threadId } : {}),
    texts: [text(p)],
    buttons: [],
    deleted: false,
    ...fields,
  };
  s.botMessages.set(keyOf(chat.id, m.messageId), m);
  return publicMessage(s, m, chat);
}

/** A file's caption (0-1024 characters). */
function captionOf(p: Record<string, unknown>): string {
  const caption = p.caption === undefined ? "" : String(p.caption);
  if (caption.length > MAX_CAPTION) throw bad("message caption is too long");
  return caption;
}

/** sendPhoto and sendDocument: an uploaded file (a file_id or URL is not what the bot sends). */
function sendFile(s: MethodState, p: Record<string, unknown>, kind: "photo" | "document"): TgMessage {
  chatOf(s, p);
  const file = fileParam(p, kind);
  if (!file) throw bad(`there is no ${kind} in the request`);
  if (file.bytes.length === 0) throw bad("file must be non-empty");
  if (file.bytes.length > MAX_UPLOAD) throw new ApiError(413, "Request Entity Too Large");
  if (kind === "photo") {
    const jpeg = file.bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]));
    const png = file.bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    if (!jpeg && !png) throw bad("IMAGE_PROCESS_FAILED");
    if (file.bytes.length > MAX_PHOTO) throw bad("PHOTO_SAVE_FILE_INVALID");
  }
  return postBotMessage(s, p, captionOf, { file: { kind, name: file.name, bytes: file.bytes } });
}

export type Method = (s: MethodState, p: Record<string, unknown>) => unknown;

export const methods: Record<string, Method> = {
  getMe: (s) => ({ ...s.botUser, is_bot: true, can_join_groups: true, can_read_all_group_messages: false }),
  sendMessage: (s, p) => postBotMessage(s, p, textOf, { buttons: buttonsOf(p) }),
  // A voice bubble is OGG with Opus (Telegram shows anything else as a file): checked here.
  sendVoice: (s, p) => {
    chatOf(s, p);
    const file = fileParam(p, "voice");
    if (!file) throw bad("there is no voice in the request");
    const head = file.bytes.subarray(0, 200).toString("latin1");
    if (!head.startsWith("OggS") || !head.includes("OpusHead"))
      throw bad("VOICE_FORMAT_INVALID: not OGG/Opus");
    return postBotMessage(s, p, captionOf, { voice: file.bytes });
  },
  sendPhoto: (s, p) => sendFile(s, p, "photo"),
  sendDocument: (s, p) => sendFile(s, p, "document"),
  editMessageText: (s, p) => {
    const chat = chatOf(s, p);
    const m = s.botMessages.get(keyOf(chat.id, Number(p.message_id)));
    if (!m || m.deleted) throw bad("message to edit not found");
    const text = textOf(p);
    const buttons = buttonsOf(p);
    if (text === m.texts.at(-1) && JSON.stringify(buttons) === JSON.stringify(m.buttons))
      throw bad(
        "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
      );
    m.texts.push(text);
    m.buttons = buttons;
    return publicMessage(s, m, chat);
  },
  deleteMessage: (s, p) => {
    const chat = chatOf(s, p);
    const m = s.botMessages.get(keyOf(chat.id, Number(p.message_id)));
    if (!m || m.deleted) throw bad("message to delete not found");
    m.deleted = true;
    return true;
  },
  sendChatAction: (s, p) => {
    const chat = chatOf(s, p);
    threadOf(chat, p);
    if (typeof p.action !== "string" || !ACTIONS.has(p.action))
      throw bad("wrong parameter action in request");
    return true;
  },
  answerCallbackQuery: (s, p) => {
    const q = typeof p.callback_query_id === "string" ? s.callbacks.get(p.callback_query_id) : undefined;
    if (!q || q.answered) throw bad("query is too old and response timeout expired or query ID is invalid");
    q.answered = true;
    return true;
  },
  setMyCommands: (s, p) => {
    const list = p.commands;
    if (!Array.isArray(list) || list.length > 100) throw bad("can't parse commands JSON object");
    for (const c of list as { command?: unknown; description?: unknown }[]) {
      if (typeof c.command !== "string" || !/^[a-z0-9_]{1,32}$/.test(c.command))
        throw bad("BOT_COMMAND_INVALID");
      if (typeof c.description !== "string" || c.description.length < 1 || c.description.length > 256)
        throw bad("BOT_COMMAND_DESCRIPTION_INVALID");
    }
    s.commands = (list as { command: string; description: string }[]).map((c) => ({
      command: c.command,
      description: c.description,
    }));
    return true;
  },
  getMyCommands: (s) => s.commands,
  getFile: (s, p) => {
    const f = typeof p.file_id === "string" ? s.files.get(p.file_id) : undefined;
    if (!f) throw bad("invalid file_id");
    return {
      file_id: p.file_id,
      file_unique_id: `u${p.file_id}`,
      file_size: f.bytes.length,
      file_path: f.path,
    };
  },
};
