// The Matrix events the bot writes: text in its thread, and edits (m.replace) of its own.
import type { ChatAddress } from "../../message.js";

/** The queue lane of a reply: its room and thread. */
export const laneOf = (to: ChatAddress) => `${to.chatId}/${to.threadId ?? ""}`;

/** A text message, in its thread where there is one. */
export function textContent(to: ChatAddress, text: string): Record<string, unknown> {
  const content: Record<string, unknown> = { msgtype: "m.text", body: text };
  if (to.threadId)
    content["m.relates_to"] = {
      rel_type: "m.thread",
      event_id: to.threadId,
      is_falling_back: true,
      "m.in_reply_to": { event_id: to.threadId },
    };
  return content;
}

/** An edit of one of the bot's messages (clients show the new content in its place). */
export function replacement(eventId: string, text: string): Record<string, unknown> {
  return {
    msgtype: "m.text",
    body: `* ${text}`,
    "m.new_content": { msgtype: "m.text", body: text },
    "m.relates_to": { rel_type: "m.replace", event_id: eventId },
  };
}
