// Messages a crash left unanswered (SPEC G1, D4): after a restart the interrupted turn is
// continued, once, when nothing it did is uncertain; the user is told only when it cannot be.
// Per chat: the rows the stored session took in (received before its last user message) are
// answered by continuing that turn from its stored history (calls the crash left open are closed
// by the resume's repair, from their receipts: nothing recorded runs again); an answer the model
// finished but that was never delivered is delivered; a call whose effect is uncertain, a second
// crash during the continuation, or a message the session never took in is reported instead.
import type { Session } from "@iris/host";
import type { InboundMessage } from "./message.js";
import type { GatewayState } from "./state/index.js";

/** The once-marker's message id: a second inbound row for the same message, claimed once. */
const ONCE = "#continue";

export interface UnansweredRow {
  platform: string;
  messageId: string;
  chatKey: string;
  chatId: string;
  threadId: string | null;
  receivedAt: number;
}

export type ChatRecovery =
  /** Continue the stored turn (send with no new message) and deliver its answer to `answers`. */
  | { kind: "continue"; answers: InboundMessage[]; report: Report[] }
  /** The stored turn's finished answer, never delivered. */
  | { kind: "deliver"; text: string; answers: InboundMessage[]; report: Report[] }
  | { kind: "report"; report: Report[] };

export interface Report {
  row: UnansweredRow;
  why: string;
}

const RESTARTED = "the gateway restarted";

/** Rows grouped per chat, oldest first; marker rows a crash left half-claimed are dropped. */
export async function unansweredByChat(
  state: GatewayState,
  platform: string,
): Promise<Map<string, UnansweredRow[]>> {
  const chats = new Map<string, UnansweredRow[]>();
  for (const row of await state.unansweredInbound(platform)) {
    if (row.messageId.endsWith(ONCE)) {
      await state.finishInbound(row.platform, row.messageId);
      continue;
    }
    const list = chats.get(row.chatKey) ?? [];
    list.push(row);
    chats.set(row.chatKey, list);
  }
  return chats;
}

/**
 * What to do for one chat's unanswered rows. `open` opens (and holds) the chat's session: the
 * resume repairs what the crash left, and its notices say whether an effect is uncertain.
 */
export async function planRecovery(
  state: GatewayState,
  rows: UnansweredRow[],
  open: () => Promise<Session>,
): Promise<ChatRecovery> {
  const last = rows[rows.length - 1] as UnansweredRow;
  const all = (why: string): ChatRecovery => ({ kind: "report", report: rows.map((row) => ({ row, why })) });
  const sessionId = await state.chatSession(last.chatKey);
  if (!sessionId) return all(RESTARTED);
  // Once: a crash during the continuation leaves the marker claimed, and the next start reports.
  const marker = { ...last, messageId: `${last.messageId}${ONCE}`, threadId: last.threadId ?? undefined };
  const fresh = await state.claimInbound({
    platform: marker.platform,
    messageId: marker.messageId,
    chatKey: marker.chatKey,
    chatId: marker.chatId,
    ...(marker.threadId ? { threadId: marker.threadId } : {}),
  });
  await state.finishInbound(marker.platform, marker.messageId);
  if (!fresh) return all(`${RESTARTED} again while it was being continued`);
  const session = await open();
  const uncertain = session.takeRepairNotices().filter((r) => r.outcome === "uncertain");
  if (uncertain.length > 0)
    return all(
      `${RESTARTED} while ${uncertain.map((u) => u.tool).join(", ")} ran, and whether it finished is unknown`,
    );
  const path = await session.stored.path();
  const lastUser = path.findLastIndex((n) => n.message?.role === "user");
  const takenAt = path[lastUser]?.createdAt ?? -1;
  const taken = rows.filter((r) => r.receivedAt <= takenAt);
  const report = rows.filter((r) => r.receivedAt > takenAt).map((row) => ({ row, why: RESTARTED }));
  if (taken.length === 0) return { kind: "report", report };
  const answers = taken.map(inboundOf);
  const tail = path[path.length - 1]?.message;
  if (tail?.role === "user" || tail?.role === "tool") return { kind: "continue", answers, report };
  if (tail?.role === "assistant") {
    const calls = tail.parts.some((p) => p.type === "toolCall");
    const text = tail.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
    if (!calls && text.trim() !== "") return { kind: "deliver", text, answers, report };
  }
  return { kind: "report", report: [...taken.map((row) => ({ row, why: RESTARTED })), ...report] };
}

/** The message a row stands for, as far as the key tells (its text is in the session). */
function inboundOf(row: UnansweredRow): InboundMessage {
  const parts = row.chatKey.split(":").map((p) => p.replace(/%3A/g, ":").replace(/%25/g, "%"));
  const chatType = parts[1] === "group" ? "group" : "dm";
  // The speaker, where the key names one (a DM's partner, a per-user group session).
  const extra = parts.slice(row.threadId ? 4 : 3);
  const userId = extra[0] ?? (chatType === "dm" ? row.chatId : "");
  return {
    platform: row.platform,
    chatType,
    chatId: row.chatId,
    ...(row.threadId ? { threadId: row.threadId } : {}),
    userId,
    userName: userId,
    text: "",
    attachments: [],
    messageId: row.messageId,
  };
}

/** The notice for a message that cannot be continued. */
export function notAnsweredText(row: UnansweredRow, why: string): string {
  const when = new Date(row.receivedAt).toISOString().slice(11, 16);
  return `Your message from ${when} UTC was not answered: ${why}. Please send it again.`;
}
