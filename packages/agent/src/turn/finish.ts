// The end of a turn: one termination reason, one result, one turn_completed hook.
import type { TurnEnv } from "./env.js";
import type { TurnResult, TurnState } from "./types.js";

export async function finishTurn(env: TurnEnv, state: TurnState): Promise<TurnResult> {
  const t = state.termination ?? { reason: "llm_error" as const, text: "The turn ended without a reason." };
  await env.log.recordTurnTime?.(Math.max(0, env.now() - state.startedAt));
  env.events.emit("turn_completed", { taskId: state.taskId, reason: t.reason, rounds: state.rounds });
  return {
    taskId: state.taskId,
    reason: t.reason,
    text: t.text,
    ...(state.lastMessage && (t.reason === "natural" || t.reason === "client_tool_calls")
      ? { message: state.lastMessage }
      : {}),
    rounds: state.rounds,
    usage: state.usage,
    costUsd: state.costUsd,
    ...(t.error ? { error: t.error } : {}),
    ...(t.kept ? { kept: t.kept } : {}),
  };
}
