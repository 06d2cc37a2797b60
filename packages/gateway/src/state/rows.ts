// Rows as both engines return them (snake_case columns), and the records the state hands out.
import type { ApprovedRow, InboundRow, OutboxRow, PairingRow } from "./state.js";

export interface InboundDbRow {
  platform: string;
  message_id: string;
  chat_key: string;
  chat_id: string;
  thread_id: string | null;
  received_at: number;
}

export interface OutboxDbRow {
  logical_key: string;
  platform: string;
  chat_id: string;
  thread_id: string | null;
  state: OutboxRow["state"];
  text: string;
  sent_at: number | null;
}

export interface PairingDbRow {
  code: string;
  platform: string;
  user_id: string;
  user_name: string;
  created_at: number;
  expires_at: number;
}

export interface ApprovedDbRow {
  platform: string;
  user_id: string;
  user_name: string;
  approved_at: number;
}

export const INBOUND_COLUMNS = "platform, message_id, chat_key, chat_id, thread_id, received_at";
export const OUTBOX_COLUMNS = "logical_key, platform, chat_id, thread_id, state, text, sent_at";
export const PAIRING_COLUMNS = "code, platform, user_id, user_name, created_at, expires_at";
export const APPROVED_COLUMNS = "platform, user_id, user_name, approved_at";

export const inboundOf = (r: InboundDbRow): InboundRow => ({
  platform: r.platform,
  messageId: r.message_id,
  chatKey: r.chat_key,
  chatId: r.chat_id,
  threadId: r.thread_id,
  receivedAt: r.received_at,
});

export const outboxOf = (r: OutboxDbRow): OutboxRow => ({
  logicalKey: r.logical_key,
  platform: r.platform,
  chatId: r.chat_id,
  threadId: r.thread_id,
  state: r.state,
  text: r.text,
  handedAt: r.sent_at,
});

export const pairingOf = (r: PairingDbRow): PairingRow => ({
  code: r.code,
  platform: r.platform,
  userId: r.user_id,
  userName: r.user_name,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

export const approvedOf = (r: ApprovedDbRow): ApprovedRow => ({
  platform: r.platform,
  userId: r.user_id,
  userName: r.user_name,
  approvedAt: r.approved_at,
});
