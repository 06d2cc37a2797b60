// Iris's termination reasons (one per turn) as ACP stop reasons. Ends that ACP has no word for
// (an LLM error, a spent budget, convergence) finish as end_turn and their honest message is sent
// to the editor as agent text, so the user reads why the turn stopped.
import type { TurnResult } from "@iris/agent";

export type StopReason = "end_turn" | "max_tokens" | "max_turn_requests" | "refusal" | "cancelled";

export function stopReasonOf(result: Pick<TurnResult, "reason" | "message">): StopReason {
  switch (result.reason) {
    case "natural":
      return result.message?.stopReason === "max_tokens" ? "max_tokens" : "end_turn";
    case "max_rounds":
      return "max_turn_requests";
    case "model_refusal":
    case "input_blocked":
      return "refusal";
    case "user_cancelled":
      return "cancelled";
    default:
      return "end_turn";
  }
}

/** Whether the turn's text was not streamed and must be shown as an explanation. */
export function needsExplanation(result: Pick<TurnResult, "reason">): boolean {
  return result.reason !== "natural" && result.reason !== "user_cancelled";
}
