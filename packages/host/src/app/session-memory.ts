// What a session remembers about its conversation besides the log: the todo list, "for this
// session" approvals, and the calls a crash left open that a resume repaired (SPEC D4). A new or
// resumed conversation starts them afresh.
import { type RepairedCall, TodoList } from "@iris/agent";
import type { Message } from "@iris/llm";
import { ApprovalMemory } from "@iris/tools";

export class SessionMemory {
  todos = new TodoList();
  approvals = new ApprovalMemory();
  /** Calls a crash left open, closed on resume; told to the user by the next Agent. */
  repairNotices: RepairedCall[] = [];
  /** A resume found another turn running: its open calls are not a crash's, repair waits for send. */
  repairPending = false;

  /** Another conversation: its todos read from `history`, a new approval memory, no repair due. */
  renew(history: readonly Message[] = []): void {
    this.todos = TodoList.fromHistory(history);
    this.approvals = new ApprovalMemory();
    this.repairPending = false;
  }
}
