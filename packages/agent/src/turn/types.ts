// Turn-level types (SPEC L5, L6): exactly one termination reason per run, an immutable snapshot
// per model sampling and a mutable state per turn.
import type { AssistantMessage, LlmError, Message, Usage, UserMessage } from "@iris/llm";

/**
 * SPEC L5's list, less `forced_text` and `model_action_required`: no path produces them yet (a
 * forced final answer after the round cap, a provider asking for a user action), and a reason in
 * the type that no code produces misleads every front end that switches on it. Plus
 * `store_error`: the store failed inside the turn (disk full, a locked or corrupt file).
 */
export type TerminationReason =
  | "natural"
  | "max_rounds"
  | "time_budget_expired"
  | "cost_budget_exceeded"
  | "context_exhausted"
  | "llm_error"
  | "model_refusal"
  | "input_blocked"
  | "billing_error"
  | "user_cancelled"
  | "convergence_detected"
  | "store_error"
  /** The model called tools the API client runs itself; the client answers them next (E3). */
  | "client_tool_calls";

/** Exit code per termination (SPEC K5): 0 natural, 130 interrupted, 1 any other end. */
export function exitCodeFor(reason: TerminationReason): number {
  if (reason === "natural") return 0;
  if (reason === "user_cancelled") return 130;
  return 1;
}

export interface TurnResult {
  taskId: string;
  reason: TerminationReason;
  /** What the user reads: the answer, or an honest message saying why there is none. */
  text: string;
  /** The final assistant message when the model produced one. */
  message?: AssistantMessage;
  rounds: number;
  usage: Usage;
  costUsd: number;
  error?: LlmError;
  /** An interrupted reply's text as the user saw it, kept in the history marked interrupted (L7). */
  kept?: string;
}

export interface RouteInfo {
  provider: string;
  model: string;
  apiMode: string;
  baseUrl: string;
}

/** Fixed before each model sampling; the tool batch of that reply uses the same snapshot. */
export interface StepSnapshot {
  readonly stepId: number;
  readonly round: number;
  readonly taskId: string;
  readonly route: Readonly<RouteInfo>;
  readonly toolNames: readonly string[];
  readonly roundsLeft: number | null;
  readonly costLeftUsd: number | null;
  readonly signal: AbortSignal;
}

/** Owned by one turn: messages, rounds done, retries, the termination reason. */
export interface TurnState {
  readonly taskId: string;
  readonly startedAt: number;
  /** The conversation as the model will see it (root first), including this turn's messages. */
  messages: Message[];
  rounds: number;
  retries: number;
  /** Monotonic across retries. */
  nextStepId: number;
  usage: Usage;
  costUsd: number;
  /** User messages that arrived mid-turn, injected after the round's results (SPEC L9). */
  pendingUser: UserMessage[];
  termination?: { reason: TerminationReason; text: string; error?: LlmError; kept?: string };
  lastMessage?: AssistantMessage;
  /** The round that already recovered from a context_length_exceeded answer (once per round). */
  overflowRecoveredRound?: number;
}
