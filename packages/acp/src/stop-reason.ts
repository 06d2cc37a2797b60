// Iris's termination reasons (one per turn) as ACP stop reasons, by what the protocol says each
// one means to the editor:
// - max_tokens: a token limit ended the turn — the reply was cut at the output limit, a reply cut
//   before it said anything, or the conversation no longer fits the model's context window;
// - max_turn_requests: the agent reached the work it may do between two user prompts — the round
//   cap, the turn's or the session's time budget, the session's cost budget, the loop guard;
// - refusal: the model or the provider's filter refused; the prompt is left out of what follows
//   (the session rewinds to before it, see AcpSession), as the protocol promises the editor;
// - cancelled: session/cancel.
// Ends ACP has no word for (a provider or store error) finish as end_turn. Every end but a natural
// one and a cancel also sends its honest message as agent text, so the user reads why it stopped.
import type { TerminationReason, TurnResult } from "@iris/host";

export type StopReason = "end_turn" | "max_tokens" | "max_turn_requests" | "refusal" | "cancelled";

const BY_REASON: Record<TerminationReason, StopReason> = {
  natural: "end_turn",
  max_rounds: "max_turn_requests",
  time_budget_expired: "max_turn_requests",
  cost_budget_exceeded: "max_turn_requests",
  convergence_detected: "max_turn_requests",
  context_exhausted: "max_tokens",
  model_refusal: "refusal",
  input_blocked: "refusal",
  user_cancelled: "cancelled",
  llm_error: "end_turn",
  billing_error: "end_turn",
  store_error: "end_turn",
  client_tool_calls: "end_turn",
};

export function stopReasonOf(result: Pick<TurnResult, "reason" | "message" | "error">): StopReason {
  // The final reply was cut at the output token limit (with or without text).
  if (result.reason === "natural" && result.message?.stopReason === "max_tokens") return "max_tokens";
  // A reply cut before it said anything (all reasoning, say) ends the turn as an empty reply.
  if (result.reason === "llm_error" && result.error?.code === "max_tokens") return "max_tokens";
  return BY_REASON[result.reason] ?? "end_turn";
}

/** Whether the turn's text was not streamed and must be shown as an explanation. */
export function needsExplanation(result: Pick<TurnResult, "reason">): boolean {
  return result.reason !== "natural" && result.reason !== "user_cancelled";
}
