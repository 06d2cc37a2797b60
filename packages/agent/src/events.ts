// Callbacks (what front ends show) and lifecycle hooks (what plugins observe), one typed emitter
// (SPEC E5). Listeners never break the turn: a throwing listener is reported and ignored.
import type { AssistantMessage, LlmError, ToolCallPart } from "@iris/llm";
import type { TerminationReason } from "./turn/types.js";

export interface AgentEventMap {
  // callbacks
  thinking: { active: boolean };
  stream_delta: { text: string };
  reasoning: { text: string };
  tool_gen: { call: ToolCallPart };
  tool_progress: {
    phase: "before" | "after" | "progress";
    callId: string;
    name: string;
    message?: string;
    isError?: boolean;
    preview?: string;
    /** Phase "after": the result the model gets (an editor shows it under the call). */
    result?: string;
  };
  step: { stepId: number; round: number };
  status: { level: "info" | "warn" | "error"; message: string };
  /** The model call has been silent this long (from 3 s on, once a second). */
  waiting: { seconds: number; provider: string; model: string };
  /** Discard the partial text/tool calls streamed so far for this step: that attempt failed and is retried. */
  stream_reset: { stepId: number; reason: string };
  // lifecycle hooks
  turn_completed: { taskId: string; reason: TerminationReason; rounds: number };
  llm_call_started: { stepId: number; provider: string; model: string };
  llm_call_ended: { stepId: number; message: AssistantMessage; latencyMs: number };
  llm_call_failed: { stepId: number; error: LlmError };
  llm_call_retried: { stepId: number; attempt: number; delayMs: number; error: LlmError };
  fallback_activated: { from: string; to: string; reason: string };
  /** A fallback entry that could not be used (credentials unreadable, same route, cooling down). */
  fallback_skipped: { route: string; reason: string };
  /** A call starts on an earlier (preferred) route again after its cooldown ended. */
  route_restored: { from: string; to: string };
  tool_exec_started: { callId: string; name: string };
  tool_exec_ended: { callId: string; name: string; isError: boolean; durationMs: number };
  tool_exec_failed: { callId: string; name: string; error: string };
  tool_approval_requested: { tool: string; command: string; reason: string };
  tool_approval_granted: { tool: string; command: string; scope: string };
  tool_approval_denied: { tool: string; command: string; reason: string };
  context_critical: { promptTokens: number; limit: number };
  context_overflow_action: { action: string; detail: string };
  handoff_triggered: { sessionId?: string; remainingMs: number };
  cost_warning: { spentUsd: number; budgetUsd: number };
}

export type AgentEventName = keyof AgentEventMap;
type Listener<K extends AgentEventName> = (payload: AgentEventMap[K]) => void;

/** A listener to every event, for forwarding (the host tags events with their session and task). */
export type AnyEventListener = <K extends AgentEventName>(name: K, payload: AgentEventMap[K]) => void;

export class AgentEvents {
  private readonly listeners = new Map<AgentEventName, Set<(p: never) => void>>();
  private readonly anyListeners = new Set<AnyEventListener>();

  /** Every event, before the listeners of its name. */
  onAny(fn: AnyEventListener): () => void {
    this.anyListeners.add(fn);
    return () => this.anyListeners.delete(fn);
  }

  on<K extends AgentEventName>(name: K, fn: Listener<K>): () => void {
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(fn as (p: never) => void);
    return () => set.delete(fn as (p: never) => void);
  }

  emit<K extends AgentEventName>(name: K, payload: AgentEventMap[K]): void {
    for (const fn of this.anyListeners) {
      try {
        fn(name, payload);
      } catch {
        // A forwarder must not break the turn; it reports its own failures.
      }
    }
    const set = this.listeners.get(name);
    if (!set) return;
    for (const fn of set) {
      try {
        (fn as Listener<K>)(payload);
      } catch (err) {
        if (name !== "status")
          this.emit("status", { level: "warn", message: `listener for ${name} failed: ${String(err)}` });
      }
    }
  }
}
