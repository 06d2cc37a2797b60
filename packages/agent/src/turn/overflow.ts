// The window check around step 8 (SPEC C1, L5): before the call the context hook may compress or
// declare the window exhausted; after a provider's context_length_exceeded the history is
// compressed and the request resent once per round, never the same body again.
import type { TurnEnv } from "./env.js";
import type { TurnState } from "./types.js";

/** Step 4 of L2 before each call. False when the turn must end (termination set). */
export async function checkContext(env: TurnEnv, state: TurnState, signal: AbortSignal): Promise<boolean> {
  if (!env.beforeModelCall) return true;
  const out = await env.beforeModelCall(state.messages, signal);
  if (out !== undefined && !Array.isArray(out)) {
    state.termination = { reason: "context_exhausted", text: out.exhausted };
    return false;
  }
  if (out) state.messages = out;
  return true;
}

/**
 * After a failed call: when the provider said the prompt is too long and this round has not
 * recovered yet, compress and clear the termination so the loop resends. True when it did.
 */
export async function recoverFromOverflow(
  env: TurnEnv,
  state: TurnState,
  round: number,
  signal: AbortSignal,
): Promise<boolean> {
  if (state.termination?.error?.kind !== "context_overflow" || !env.onContextOverflow) return false;
  if (state.overflowRecoveredRound === round) return false;
  state.overflowRecoveredRound = round;
  const compressed = await env.onContextOverflow(state.messages, signal);
  if (!compressed) return false;
  state.messages = compressed;
  state.termination = undefined;
  env.events.emit("status", {
    level: "warn",
    message: "the provider said the prompt is too long: compressed the history and sending again",
  });
  return true;
}
