// Approvals and clarify questions as chat messages (SPEC G2): the question is posted in the chat
// and only the user whose message started the turn may answer it (`/approve`, `/deny`, or, for a
// clarify question, their next message).
import type { Session } from "@iris/host";

interface Waiting {
  kind: "approval" | "clarify";
  requestId: string;
  userId: string;
  session: Session;
}

export class PendingAsks {
  private readonly byChat = new Map<string, Waiting>();

  ask(chatKey: string, w: Waiting): void {
    this.byChat.set(chatKey, w);
  }

  has(chatKey: string, kind: Waiting["kind"]): boolean {
    return this.byChat.get(chatKey)?.kind === kind;
  }

  /**
   * A `/approve` or `/deny` from `userId` (or a button press naming `requestId`); a message to
   * show, or undefined when none waits.
   */
  answerApproval(
    chatKey: string,
    userId: string,
    answer: "once" | "session" | "always" | "deny",
    requestId?: string,
  ): string | undefined {
    const w = this.byChat.get(chatKey);
    if (w?.kind !== "approval") return undefined;
    if (requestId !== undefined && w.requestId !== requestId) return "that approval is no longer waiting";
    if (w.userId !== userId) return "only the person who asked may answer this approval";
    this.byChat.delete(chatKey);
    if (!w.session.answerApproval(w.requestId, answer)) return "that approval is no longer waiting";
    return answer === "deny" ? "denied" : `approved (${answer})`;
  }

  /** A plain message answering a clarify question; true when it was taken as the answer. */
  answerClarify(chatKey: string, userId: string, text: string): boolean {
    const w = this.byChat.get(chatKey);
    if (w?.kind !== "clarify" || w.userId !== userId) return false;
    this.byChat.delete(chatKey);
    return w.session.answerClarify(w.requestId, text);
  }

  /** The turn ended: whatever it asked is void. */
  clear(chatKey: string): void {
    this.byChat.delete(chatKey);
  }
}
