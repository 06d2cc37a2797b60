// Approvals and clarify questions as chat messages (SPEC G2): the question is posted in the chat
// and only the user whose message started the turn may answer it (`/approve`, `/deny`, or, for a
// clarify question, their next message). Each question keeps its own request id: two calls that
// ask at once are two questions, answered oldest first or by id (`/approve approval_2`).
import type { ApprovalAnswer, Session } from "@iris/host";

interface Waiting {
  kind: "approval" | "clarify";
  requestId: string;
  userId: string;
  session: Session;
}

export class PendingAsks {
  private readonly byChat = new Map<string, Waiting[]>();

  ask(chatKey: string, w: Waiting): void {
    this.byChat.set(chatKey, [...(this.byChat.get(chatKey) ?? []), w]);
  }

  /** Whether at least `atLeast` questions of `kind` wait in the chat. */
  has(chatKey: string, kind: Waiting["kind"], atLeast = 1): boolean {
    return (this.byChat.get(chatKey) ?? []).filter((w) => w.kind === kind).length >= atLeast;
  }

  /**
   * A `/approve` or `/deny` from `userId`, or a button press, for `requestId` (default the oldest
   * waiting approval); a message to show, or undefined when none waits.
   */
  answerApproval(
    chatKey: string,
    userId: string,
    answer: ApprovalAnswer,
    requestId?: string,
  ): string | undefined {
    const list = this.byChat.get(chatKey) ?? [];
    const approvals = list.filter((w) => w.kind === "approval");
    if (approvals.length === 0) return undefined;
    const w = requestId ? approvals.find((a) => a.requestId === requestId) : approvals[0];
    if (!w)
      return `no approval ${requestId} is waiting (waiting: ${approvals.map((a) => a.requestId).join(", ")})`;
    if (w.userId !== userId) return "only the person who asked may answer this approval";
    this.take(chatKey, w);
    if (!w.session.answer(w.requestId, answer)) return "that approval is no longer waiting";
    const left = approvals.length - 1;
    const said = answer === "deny" || answer === "deny_session" ? "denied" : `approved (${answer})`;
    return left > 0 ? `${said}; ${left} more waiting` : said;
  }

  /** A plain message answering the oldest clarify question; true when it was taken as the answer. */
  answerClarify(chatKey: string, userId: string, text: string): boolean {
    const w = this.byChat.get(chatKey)?.find((x) => x.kind === "clarify");
    if (!w || w.userId !== userId) return false;
    this.take(chatKey, w);
    return w.session.answer(w.requestId, text);
  }

  /** The session stopped waiting for `requestId` (ask_withdrawn); true when it waited here. */
  withdraw(chatKey: string, requestId: string): boolean {
    const w = this.byChat.get(chatKey)?.find((x) => x.requestId === requestId);
    if (w) this.take(chatKey, w);
    return w !== undefined;
  }

  /** The turn ended: whatever it asked is void. */
  clear(chatKey: string): void {
    this.byChat.delete(chatKey);
  }

  private take(chatKey: string, w: Waiting): void {
    const rest = (this.byChat.get(chatKey) ?? []).filter((x) => x !== w);
    if (rest.length) this.byChat.set(chatKey, rest);
    else this.byChat.delete(chatKey);
  }
}
