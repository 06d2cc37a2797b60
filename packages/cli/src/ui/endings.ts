// What a turn's end means, in words: the termination reasons (SPEC L5) are codes for scripts
// (`--output-format json` keeps them); a person reads these instead.
import type { TerminationReason } from "@iris/host";

const WORDS: Record<TerminationReason, string> = {
  natural: "done",
  max_rounds: "stopped: the turn reached its round limit (--max-rounds or agent.max_rounds)",
  time_budget_expired: "stopped: the turn ran out of time (agent.time_budget_seconds)",
  cost_budget_exceeded: "stopped: the cost budget is spent (agent.cost_budget_usd)",
  context_exhausted: "stopped: the conversation no longer fits the model's context window",
  llm_error: "the model call failed",
  model_refusal: "the model declined",
  input_blocked: "the provider blocked the input",
  billing_error: "the provider refused for billing reasons",
  user_cancelled: "interrupted",
  convergence_detected: "stopped: the same failing call kept repeating",
  store_error: "stopped: the session store failed (see the message)",
  client_tool_calls: "waiting for the API client to run its tools",
};

export function describeEnding(reason: string): string {
  return (WORDS as Record<string, string>)[reason] ?? reason.replace(/_/g, " ");
}

/** The line shown after a turn that did not end naturally; the text says why when it adds to it. */
export function endingLine(reason: TerminationReason, text: string): string {
  const words = describeEnding(reason);
  if (reason === "user_cancelled") return `(${words})`;
  return text && text !== "Interrupted." ? `(${words}) ${text}` : `(${words})`;
}
