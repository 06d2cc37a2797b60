// A chat's past as a platform shows it again (the web chat's page after a reload): the user and
// assistant lines of the chat's session in the store, tool traffic left out. It is read from the
// store, never from memory, so it survives a restart of the gateway as well as of the page.

import { assistantText, type Message, textOf } from "@iris/llm";
import type { HistoryLine } from "./adapter.js";
import type { ChatAddress, ChatType } from "./message.js";
import { type GroupSessions, sessionKey } from "./pipeline/session-key.js";
import type { GatewayState } from "./state/index.js";

/** Lines shown at most (the newest). */
const MAX_LINES = 200;

/** `stored(sessionId)`: a stored session's conversation (IrisProcess.storedHistory). */
export async function chatHistory(
  stored: (sessionId: string) => Promise<Message[]>,
  state: GatewayState,
  groupSessions: GroupSessions,
  to: ChatAddress,
  chatType: ChatType,
  userId: string,
): Promise<HistoryLine[]> {
  const key = sessionKey(
    { ...to, chatType, userId, userName: userId, text: "", attachments: [], messageId: "" },
    groupSessions,
  );
  const sessionId = await state.chatSession(key);
  if (!sessionId) return [];
  const lines: HistoryLine[] = [];
  for (const m of await stored(sessionId)) {
    const text = lineText(m);
    if (text !== undefined && text.trim() !== "") lines.push({ role: m.role as HistoryLine["role"], text });
  }
  return lines.slice(-MAX_LINES);
}

function lineText(m: Message): string | undefined {
  if (m.role === "user") return textOf(m.content);
  if (m.role === "assistant") return assistantText(m);
  return undefined;
}
