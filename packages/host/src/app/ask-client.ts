// A front end's side of the one ask protocol, for those that show a question and wait for its
// answer (an editor's dialog, a terminal prompt): each `approval_requested` / `clarify_requested`
// event of the session is shown, its answer goes back by request id (Session.answer), and an
// `ask_withdrawn` event aborts the shown question (reason: AskWithdrawnReason), whose late answer
// is then dropped. Chats, which answer from a later message, keep their own list (the gateway).
import type { ApprovalAnswer, ApprovalRequest } from "@iris/tools";
import type { HostEventListener } from "./events.js";
import { NO_CLARIFY_ANSWER } from "./session-prompts.js";

export interface ShownAsks {
  /** Shows an approval; `signal` aborts when the session withdraws it. */
  approval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  /** Shows a clarify question; `callId`: the clarify call asking. */
  clarify(
    question: { question: string; choices?: string[]; callId?: string },
    signal: AbortSignal,
  ): Promise<string>;
  /** A question that failed to show (it is answered as unanswered). */
  failed?(err: unknown): void;
}

interface AskedSession {
  subscribe(fn: HostEventListener): () => void;
  answer(requestId: string, answer: ApprovalAnswer | string): boolean;
}

/** Shows `session`'s questions with `shown` until the returned function is called. */
export function answerAsks(session: AskedSession, shown: ShownAsks): () => void {
  const open = new Map<string, AbortController>();
  const show = (requestId: string, fallback: string, ask: (signal: AbortSignal) => Promise<string>) => {
    const question = new AbortController();
    open.set(requestId, question);
    const answer = (a: string) => {
      // A withdrawn question's answer is nobody's: the session stopped waiting for it.
      if (!question.signal.aborted) session.answer(requestId, a);
    };
    ask(question.signal)
      .then(answer, (err: unknown) => {
        shown.failed?.(err);
        answer(fallback);
      })
      .finally(() => open.delete(requestId));
  };
  const unsubscribe = session.subscribe((e) => {
    if (e.name === "approval_requested")
      show(e.payload.requestId, "deny", (signal) => shown.approval(e.payload.request, signal));
    else if (e.name === "clarify_requested") {
      const { requestId, ...question } = e.payload;
      show(requestId, NO_CLARIFY_ANSWER, (signal) => shown.clarify(question, signal));
    } else if (e.name === "ask_withdrawn") open.get(e.payload.requestId)?.abort(e.payload.reason);
  });
  return () => {
    unsubscribe();
    for (const question of open.values()) question.abort("cancelled");
  };
}
