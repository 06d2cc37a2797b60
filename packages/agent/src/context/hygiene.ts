// The gateway layer (SPEC C1, C2): a safety net checked before an agent is created, fixed at
// 0.85 of the window. In normal operation the agent layer (trigger at 0.75/0.50) keeps the
// history below it, so a firing is an alarm: something in the agent layer is broken.
import type { Message } from "@iris/llm";
import type { ContextBudget } from "./budget.js";
import { estimateMessagesTokens } from "./tokens.js";

export const HYGIENE_MIN_MESSAGES = 4;

export interface HygieneInput {
  messages: readonly Message[];
  /** The prompt size the API reported for the last call of this session, if any. */
  lastPromptTokens?: number;
  budget: ContextBudget;
  compressionEnabled: boolean;
  /** Counted in the estimate when no measurement exists. */
  system?: string;
}

export interface HygieneResult {
  fire: boolean;
  tokens: number;
  source: "measured" | "estimate";
  /** Set when it fires: the line the caller logs as an alarm. */
  alarm?: string;
}

export function sessionHygiene(input: HygieneInput): HygieneResult {
  const measured = input.lastPromptTokens !== undefined && input.lastPromptTokens > 0;
  const tokens = measured
    ? (input.lastPromptTokens as number)
    : estimateMessagesTokens(input.messages, input.system);
  const source = measured ? "measured" : "estimate";
  const eligible = input.compressionEnabled && input.messages.length >= HYGIENE_MIN_MESSAGES;
  if (!eligible || tokens < input.budget.gatewayTokens) return { fire: false, tokens, source };
  const b = input.budget;
  const alarm =
    `context alarm: the session history is at ${tokens} tokens (${source}), over the gateway safety net ` +
    `of ${b.gatewayTokens} (85 % of the ${b.window}-token window). The agent-layer compression ` +
    `(trigger ${b.triggerTokens}) did not keep it small: check for failed summaries, a tail floor of ` +
    `${b.protectLastN} messages holding large outputs, or compression checks skipped inside long turns.`;
  return { fire: true, tokens, source, alarm };
}
