// Events with an identity (ARCHITECTURE.md "Process scope and session scope"): every event a
// front end sees names the session and the task it belongs to, and a subagent's events name the
// parent task too. A session split is an event of its own, so a front end can re-point its map
// (chat → session, API conversation → session).
import type { AgentEventMap } from "@iris/agent";
import type { ApprovalRequest } from "@iris/tools";

export interface EventIdentity {
  /** The conversation this event belongs to (the parent's, for a subagent's forwarded events). */
  sessionId: string;
  /** The task (one user message, or one delegated goal) that produced it. */
  taskId: string;
  /** Set on a subagent's events: the task of the parent that delegated. */
  parentTaskId?: string;
  /** Set on a subagent's events when known: the parent's tool call (delegate_task) it runs under. */
  parentCallId?: string;
}

export interface HostEventMap extends AgentEventMap {
  /** Compression (or a branch) moved the conversation to a new session id. */
  session_split: { from: string; to: string };
  /** The session waits for `answer(requestId, …)`. */
  approval_requested: { requestId: string; request: ApprovalRequest };
  /** The session waits for `answer(requestId, …)`; `callId`: the clarify call asking. */
  clarify_requested: { requestId: string; question: string; choices?: string[]; callId?: string };
  /**
   * A question the session stopped waiting for: the front end withdraws its dialog (an editor's
   * permission request, a terminal prompt), and an answer to it is ignored. `timeout`: the
   * approval policy's time ran out (the call was denied); `cancelled`: the turn was stopped or
   * ended; `answered-elsewhere`: the dashboard answered it first.
   */
  ask_withdrawn: { requestId: string; reason: AskWithdrawnReason };
  /** The session was closed; no more events come from it. */
  session_closed: { reason: string };
}

export type AskWithdrawnReason = "timeout" | "cancelled" | "answered-elsewhere";

export type HostEventName = keyof HostEventMap;

/** One event as a front end receives it. */
export type HostEvent = {
  [K in HostEventName]: EventIdentity & { name: K; payload: HostEventMap[K] };
}[HostEventName];

export type HostEventListener = (event: HostEvent) => void;

/** Subagent events a parent session forwards (its front end shows the child's progress). */
export const FORWARDED_CHILD_EVENTS: ReadonlySet<string> = new Set([
  "stream_delta",
  "stream_reset",
  "thinking",
  "tool_progress",
  "status",
  "step",
  "turn_completed",
]);

/** A set of listeners that never lets one listener break another, or the turn. */
export class EventFanout {
  private readonly listeners = new Set<HostEventListener>();

  subscribe(fn: HostEventListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  emit(event: HostEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(event);
      } catch {
        // A front end's listener failing must not stop the others or the turn.
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
