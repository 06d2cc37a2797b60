// A session's approval and clarify requests shown in its chat (runner.ts): recorded as waiting
// (asks.ts) and posted through the outbox, approvals with buttons keyed by the request id; one the
// session withdraws (the policy's timeout) leaves the list, and a timeout is said in the chat.
import type { HostEvent, Session } from "@iris/host";
import type { Logger } from "@iris/llm";
import type { ActionButton } from "./adapter.js";
import type { PendingAsks } from "./asks.js";
import { approvalButtons, type Chat } from "./gateway-chat.js";

/** Returns false for an event that is not a request (the turn's render takes it). */
export function postAsk(
  asks: PendingAsks,
  key: string,
  chat: Chat,
  session: Session,
  e: HostEvent,
  logger: Logger,
): boolean {
  const post = (logicalKey: string, text: string, buttons?: readonly ActionButton[]) =>
    void chat.platform.deliverer
      .deliver(logicalKey, chat.addr, text, buttons ? { buttons } : {})
      .catch((err) => logger.warn("gateway ask failed", { error: String(err) }));
  // Request ids count per session from 1: the task id makes the outbox key unique across
  // chats and restarts (a reused key would be taken as sent already and never shown).
  const platform = chat.platform.adapter.platform;
  if (e.name === "approval_requested") {
    const r = e.payload.request;
    asks.ask(key, { kind: "approval", requestId: e.payload.requestId, userId: chat.userId, session });
    post(
      `${platform}:${e.taskId}:${e.payload.requestId}:ask`,
      // With several waiting, the reply names which (each call is asked and answered by its id).
      `Approval needed: ${r.tool} wants to run \`${r.command}\` (${r.reason}). Reply /approve, /approve session, or /deny${asks.has(key, "approval", 2) ? ` followed by ${e.payload.requestId} (several wait)` : ""}.`,
      approvalButtons(e.payload.requestId),
    );
    return true;
  }
  if (e.name === "clarify_requested") {
    asks.ask(key, { kind: "clarify", requestId: e.payload.requestId, userId: chat.userId, session });
    const choices = e.payload.choices?.length ? ` (${e.payload.choices.join(" / ")})` : "";
    post(`${platform}:${e.taskId}:${e.payload.requestId}:ask`, `Question: ${e.payload.question}${choices}`);
    return true;
  }
  if (e.name === "ask_withdrawn") {
    // Off the list, so `/approve` goes to a question still waiting; a timeout is said in the chat.
    const { requestId, reason } = e.payload;
    if (asks.withdraw(key, requestId) && reason === "timeout")
      post(
        `${platform}:${e.taskId}:${requestId}:withdrawn`,
        `No answer in time: ${requestId} was not approved (denied).`,
      );
    return true;
  }
  return false;
}
