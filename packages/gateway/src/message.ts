// The platform-neutral shapes the runner works on (SPEC G1): what a platform event becomes,
// and what the runner asks a platform to do.

export type ChatType = "dm" | "group";

/** One platform event, normalised by its adapter. */
export interface InboundMessage {
  platform: string;
  chatType: ChatType;
  /** Where a reply goes: a channel name, a DM partner, a room id. */
  chatId: string;
  /** A thread inside the chat, where the platform has them. */
  threadId?: string;
  userId: string;
  /** How the speaker is named in a merged multi-user turn. */
  userName: string;
  /**
   * The name an allowlist entry may name, where the platform's display name is not a login
   * name anyone else is kept from taking (Telegram: the @username, or the id when there is
   * none, never the free-form first name). Absent: userName (an IRC nick).
   */
  handle?: string;
  text: string;
  /**
   * The text is a prompt a route rendered from an outside sender's data (webhooks): it is never
   * taken for a slash command or an answer to a pending question, whatever it starts with.
   */
  promptOnly?: boolean;
  attachments: Attachment[];
  /** The platform's own id of this message: the inbound dedupe key (SPEC U3). */
  messageId: string;
  /** The message replies to one of the bot's (counts as a mention). */
  replyToBot?: boolean;
  /** The platform itself marks the bot as mentioned (an @-mention entity). */
  mentionsBot?: boolean;
  /** A button press answering an approval (the text is the equivalent command). */
  action?: ApprovalAction;
}

/** What an approval button carries: the request it answers and the answer. */
export interface ApprovalAction {
  requestId: string;
  answer: "once" | "session" | "deny";
}

export interface Attachment {
  kind: "image" | "file" | "audio";
  name: string;
  url?: string;
  /** The bytes, base64, when the platform delivered them (a web chat image). */
  data?: string;
}

/** Where a reply goes. */
export interface ChatAddress {
  platform: string;
  chatId: string;
  threadId?: string;
}
