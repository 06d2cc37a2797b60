// The session's questions in the editor (the one ask protocol): an `approval_requested` event
// becomes a `session/request_permission` keyed to its tool call, a `clarify_requested` a form or a
// choice dialog, and the editor's answer goes back through `Session.answer(requestId, …)`. An
// `ask_withdrawn` event (the policy's timeout, a cancelled turn, the dashboard answering first)
// withdraws the dialog (`$/cancel_request`), so none outlives its question.
import type { HostEvent, Session } from "@iris/host";
import { type Clarify, NO_WAY_TO_ASK } from "./clarify.js";
import type { EditorApprovals } from "./permissions.js";

export class EditorAsks {
  /** The dialogs open now, by request id. */
  private readonly open = new Map<string, AbortController>();

  constructor(
    private readonly session: Session,
    private readonly approvals: EditorApprovals,
    private readonly clarify: Clarify | undefined,
    private readonly log: (message: string) => void,
  ) {}

  /** Takes the session's ask events; others are ignored. */
  onEvent(event: HostEvent): void {
    if (event.name === "approval_requested") {
      const { requestId, request } = event.payload;
      this.show(requestId, (signal) => this.approvals.approve(request, signal));
    } else if (event.name === "clarify_requested") {
      const { requestId, question, choices, callId } = event.payload;
      const ask = this.clarify;
      if (!ask) this.session.answer(requestId, NO_WAY_TO_ASK);
      else this.show(requestId, (signal) => ask(question, choices, signal, callId));
    } else if (event.name === "ask_withdrawn") {
      this.open.get(event.payload.requestId)?.abort(event.payload.reason);
    }
  }

  /** Withdraws whatever is still open (the turn is over). */
  close(): void {
    for (const dialog of this.open.values()) dialog.abort("cancelled");
  }

  private show(requestId: string, ask: (signal: AbortSignal) => Promise<string>): void {
    const dialog = new AbortController();
    this.open.set(requestId, dialog);
    ask(dialog.signal)
      .then((answer) => {
        // A withdrawn question's answer is nobody's: the session stopped waiting for it.
        if (!dialog.signal.aborted) this.session.answer(requestId, answer);
      })
      .catch((err: unknown) => this.log(`asking the editor failed: ${String(err)}`))
      .finally(() => this.open.delete(requestId));
  }
}
