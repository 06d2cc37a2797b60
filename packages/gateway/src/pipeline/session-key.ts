// The session key (SPEC G1): `platform:chat_type:chat_id[:thread][:user]`. A thread is its own
// conversation; in groups with per-user sessions the speaker is part of the key. A DM keys on the
// chat, and on the speaker where their id is not the chat's (an IRC DM's chat is the nick, the
// speaker is nick!user@host): whoever takes a nick later never continues its owner's session.
// Parts are escaped so a ':' inside an id cannot forge another key.
import type { InboundMessage } from "../message.js";

export type GroupSessions = "shared" | "per_user";

const part = (s: string) => s.replace(/%/g, "%25").replace(/:/g, "%3A");

export function sessionKey(msg: InboundMessage, groupSessions: GroupSessions): string {
  const parts = [msg.platform, msg.chatType, msg.chatId];
  if (msg.threadId) parts.push(msg.threadId);
  if (msg.chatType === "group" && groupSessions === "per_user") parts.push(msg.userId);
  if (msg.chatType === "dm" && msg.userId !== msg.chatId) parts.push(msg.userId);
  return parts.map(part).join(":");
}

/** The chat id of a session key (its third part, unescaped); undefined when the key has none. */
export function chatIdOfKey(key: string): string | undefined {
  const id = key.split(":")[2];
  return id ? id.replace(/%3A/g, ":").replace(/%25/g, "%") : undefined;
}
