// The one ask protocol (ARCHITECTURE "one ask protocol"): a session's approvals and clarify
// questions go out as tagged events with a request id (and the tool call's id) and wait for
// answer(requestId, …), whichever front end shows them (ACP, the terminal, a chat, the dashboard).
// A question the session stops waiting for (the policy's timeout, a cancelled turn, the dashboard
// answering first) is withdrawn with an `ask_withdrawn` event, so the front end takes its dialog
// down. A turn that ends, or a session that closes, denies what still waits, so no tool call is
// left hanging and no answer reaches the wrong turn.
import type { FrontEnd } from "@iris/agent";
import type { ApprovalAnswer } from "@iris/tools";
import { ANSWERED_ON_BOARD } from "../dashboard/ask-board.js";
import type { AskWithdrawnReason, EventIdentity, HostEventMap } from "./events.js";

type Emit = <K extends keyof HostEventMap>(
  name: K,
  payload: HostEventMap[K],
  identity: Omit<EventIdentity, "sessionId">,
) => void;

interface Waiting<T> {
  taskId: string;
  resolve(answer: T): void;
  /** Says the question went away (an `ask_withdrawn` event). */
  withdrawn(reason: AskWithdrawnReason): void;
}

/** What a turn adds besides its questions: an editor's files, the user's tool hooks. */
export type TurnHooks = Omit<FrontEnd, "approve" | "clarify">;

/**
 * Who answers a turn's approvals and clarify questions. `events` (the default): a person, through
 * `approval_requested` / `clarify_requested` events and `Session.answer`. `nobody`: no one can
 * answer (a piped run, batch): the policy's non-interactive rule decides, and the dashboard may
 * answer while one runs. `{approval, clarify}`: fixed answers where nobody is asked (an API
 * server, a scheduled job).
 */
export type TurnAsks = "events" | "nobody" | { approval: ApprovalAnswer; clarify: string };

/** What a clarify question gets when nobody answered it before its turn ended. */
export const NO_CLARIFY_ANSWER = "(no answer: the user did not reply before the turn ended)";

export class SessionPrompts {
  private readonly approvals = new Map<string, Waiting<ApprovalAnswer>>();
  private readonly clarifies = new Map<string, Waiting<string>>();
  private seq = 0;

  /** How a session asks: each question becomes an event, withdrawn when `signal` aborts. */
  frontEnd(emit: Emit, taskId: () => string): Required<Pick<FrontEnd, "approve" | "clarify">> {
    const ask = <T>(
      map: Map<string, Waiting<T>>,
      kind: "approval" | "clarify",
      fallback: T,
      signal: AbortSignal | undefined,
      requested: (requestId: string, task: string) => void,
    ) =>
      new Promise<T>((resolve) => {
        const requestId = `${kind}_${++this.seq}`;
        const task = taskId();
        if (signal?.aborted) return resolve(fallback);
        const onAbort = () => {
          if (map.get(requestId)) withdraw(map, requestId, fallback, withdrawnReason(signal?.reason));
        };
        map.set(requestId, {
          taskId: task,
          resolve: (answer) => {
            signal?.removeEventListener("abort", onAbort);
            resolve(answer);
          },
          withdrawn: (reason) => emit("ask_withdrawn", { requestId, reason }, { taskId: task }),
        });
        signal?.addEventListener("abort", onAbort, { once: true });
        requested(requestId, task);
      });
    return {
      approve: (request, signal) =>
        ask(this.approvals, "approval", "deny" as ApprovalAnswer, signal, (requestId, task) =>
          emit("approval_requested", { requestId, request }, { taskId: task }),
        ),
      clarify: (question, choices, signal, callId) =>
        ask(this.clarifies, "clarify", NO_CLARIFY_ANSWER, signal, (requestId, task) =>
          emit(
            "clarify_requested",
            { requestId, question, ...(choices ? { choices } : {}), ...(callId ? { callId } : {}) },
            { taskId: task },
          ),
        ),
    };
  }

  /** The turn's front end: its hooks plus the asks `asks` says. */
  turnFrontEnd(hooks: TurnHooks, asks: TurnAsks, emit: Emit, taskId: () => string): FrontEnd {
    if (asks === "nobody") return { ...hooks };
    if (asks === "events") return { ...hooks, ...this.frontEnd(emit, taskId) };
    return { ...hooks, approve: async () => asks.approval, clarify: async () => asks.clarify };
  }

  /** An approval's or a clarify question's answer, by its request id. */
  answer(requestId: string, answer: ApprovalAnswer | string): boolean {
    if (this.approvals.has(requestId)) {
      if (!isApprovalAnswer(answer)) return false;
      return settle(this.approvals, requestId, answer);
    }
    return settle(this.clarifies, requestId, answer);
  }

  answerApproval(requestId: string, answer: ApprovalAnswer): boolean {
    return settle(this.approvals, requestId, answer);
  }

  answerClarify(requestId: string, answer: string): boolean {
    return settle(this.clarifies, requestId, answer);
  }

  /** The turn ended: what it still waits for is denied and withdrawn. */
  cancelTask(taskId: string): void {
    for (const [id, w] of this.approvals)
      if (w.taskId === taskId) withdraw(this.approvals, id, "deny", "cancelled");
    for (const [id, w] of this.clarifies)
      if (w.taskId === taskId) withdraw(this.clarifies, id, NO_CLARIFY_ANSWER, "cancelled");
  }

  cancelAll(): void {
    for (const id of [...this.approvals.keys()]) withdraw(this.approvals, id, "deny", "cancelled");
    for (const id of [...this.clarifies.keys()]) withdraw(this.clarifies, id, NO_CLARIFY_ANSWER, "cancelled");
  }

  get waiting(): number {
    return this.approvals.size + this.clarifies.size;
  }
}

const APPROVAL_ANSWERS: ReadonlySet<string> = new Set(["once", "session", "always", "deny", "deny_session"]);

function isApprovalAnswer(answer: string): answer is ApprovalAnswer {
  return APPROVAL_ANSWERS.has(answer);
}

function settle<T>(map: Map<string, Waiting<T>>, id: string, answer: T): boolean {
  const w = map.get(id);
  if (!w) return false;
  map.delete(id);
  w.resolve(answer);
  return true;
}

/** Stops waiting for `id`: its asker gets `fallback`, and the front end is told to withdraw it. */
function withdraw<T>(
  map: Map<string, Waiting<T>>,
  id: string,
  fallback: T,
  reason: AskWithdrawnReason,
): void {
  const w = map.get(id);
  if (!w) return;
  settle(map, id, fallback);
  w.withdrawn(reason);
}

/** The abort reasons of the policy ("timeout") and the ask board, as the event names them. */
function withdrawnReason(reason: unknown): AskWithdrawnReason {
  if (reason === "timeout") return "timeout";
  if (reason === ANSWERED_ON_BOARD) return "answered-elsewhere";
  return "cancelled";
}
