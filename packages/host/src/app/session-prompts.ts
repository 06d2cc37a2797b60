// Approvals and clarify questions of a session whose front end answers later (gateway, ACP, API):
// each question goes out as a tagged event with a request id and waits for answerApproval /
// answerClarify. A turn that ends, or a session that closes, denies what still waits, so no tool
// call is left hanging and no answer reaches the wrong turn.
import type { FrontEnd } from "@iris/agent";
import type { ApprovalAnswer } from "@iris/tools";
import type { EventIdentity, HostEventMap } from "./events.js";

type Emit = <K extends keyof HostEventMap>(
  name: K,
  payload: HostEventMap[K],
  identity: Omit<EventIdentity, "sessionId">,
) => void;

interface Waiting<T> {
  taskId: string;
  resolve(answer: T): void;
}

/** What a clarify question gets when nobody answered it before its turn ended. */
export const NO_CLARIFY_ANSWER = "(no answer: the user did not reply before the turn ended)";

export class SessionPrompts {
  private readonly approvals = new Map<string, Waiting<ApprovalAnswer>>();
  private readonly clarifies = new Map<string, Waiting<string>>();
  private seq = 0;

  /** The front end a session uses when its caller gives none: questions become events. */
  frontEnd(emit: Emit, taskId: () => string): FrontEnd {
    return {
      approve: (request) =>
        new Promise<ApprovalAnswer>((resolve) => {
          const requestId = `approval_${++this.seq}`;
          const task = taskId();
          this.approvals.set(requestId, { taskId: task, resolve });
          emit("approval_requested", { requestId, request }, { taskId: task });
        }),
      clarify: (question, choices) =>
        new Promise<string>((resolve) => {
          const requestId = `clarify_${++this.seq}`;
          const task = taskId();
          this.clarifies.set(requestId, { taskId: task, resolve });
          emit(
            "clarify_requested",
            { requestId, question, ...(choices ? { choices } : {}) },
            { taskId: task },
          );
        }),
    };
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

  /** The turn ended: what it still waits for is denied. */
  cancelTask(taskId: string): void {
    for (const [id, w] of this.approvals) if (w.taskId === taskId) settle(this.approvals, id, "deny");
    for (const [id, w] of this.clarifies)
      if (w.taskId === taskId) settle(this.clarifies, id, NO_CLARIFY_ANSWER);
  }

  cancelAll(): void {
    for (const id of [...this.approvals.keys()]) settle(this.approvals, id, "deny");
    for (const id of [...this.clarifies.keys()]) settle(this.clarifies, id, NO_CLARIFY_ANSWER);
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
