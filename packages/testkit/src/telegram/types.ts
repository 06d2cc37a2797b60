// The Bot API objects the fake Telegram server keeps and returns (core.telegram.org/bots/api),
// only the fields Iris's adapter reads or the tests check.

export interface TgUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
}

export interface TgChat {
  id: number;
  type: "private" | "group" | "supergroup";
  title?: string;
  first_name?: string;
  is_forum?: boolean;
}

export interface TgEntity {
  type: string;
  offset: number;
  length: number;
}

export interface TgPhotoSize {
  file_id: string;
  file_unique_id: string;
  width: number;
  height: number;
  file_size: number;
}

export interface TgMessage {
  message_id: number;
  date: number;
  chat: TgChat;
  from?: TgUser;
  message_thread_id?: number;
  is_topic_message?: boolean;
  text?: string;
  caption?: string;
  entities?: TgEntity[];
  photo?: TgPhotoSize[];
  document?: { file_id: string; file_unique_id: string; file_name?: string; file_size: number };
  voice?: { file_id: string; file_unique_id: string; duration: number; mime_type: string; file_size: number };
  reply_to_message?: TgMessage;
  reply_markup?: { inline_keyboard: { text: string; callback_data?: string }[][] };
  edit_date?: number;
}

export interface TgUpdate {
  update_id: number;
  message?: TgMessage;
  callback_query?: {
    id: string;
    from: TgUser;
    message?: TgMessage;
    chat_instance: string;
    data?: string;
  };
}

/** One Bot API call as the fake received it (the tests check order and timing). */
export interface TgCall {
  method: string;
  /** ms since the epoch when the call arrived. */
  at: number;
  params: Record<string, unknown>;
  /** The HTTP status the fake answered. */
  status: number;
}

/** A message the bot sent, with every text it had (edits appended). */
export interface TgBotMessage {
  chatId: number;
  messageId: number;
  threadId?: number;
  texts: string[];
  buttons: { text: string; data: string }[];
  deleted: boolean;
  /** The OGG/Opus bytes of a voice note the bot sent. */
  voice?: Buffer;
  /** A photo or document the bot sent (its caption is `texts[0]`). */
  file?: { kind: "photo" | "document"; name: string; bytes: Buffer };
}
