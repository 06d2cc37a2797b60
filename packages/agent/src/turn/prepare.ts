// Steps 1–3 of the turn (SPEC L2): task id, append the user message, reuse the frozen prompt.
import { type LlmRequest, type UserMessage, ZERO_USAGE } from "@iris/llm";
import type { TurnEnv } from "./env.js";
import type { StepSnapshot, TurnState } from "./types.js";

/** Without `input` the turn continues the history as it stands (tool results an API client sent). */
export function prepareTurn(env: TurnEnv, input: UserMessage | undefined): TurnState {
  const taskId = env.newTaskId();
  if (input) env.log.append(input);
  return {
    taskId,
    startedAt: env.now(),
    messages: env.log.history(),
    rounds: 0,
    retries: 0,
    nextStepId: 1,
    usage: { ...ZERO_USAGE },
    costUsd: 0,
    pendingUser: [],
  };
}

export function takeSnapshot(env: TurnEnv, state: TurnState, signal: AbortSignal): StepSnapshot {
  const left = env.guards.left({ rounds: state.rounds, turnCostUsd: state.costUsd });
  return Object.freeze({
    stepId: state.nextStepId++,
    round: state.rounds + 1,
    taskId: state.taskId,
    route: Object.freeze({ ...env.model.route() }),
    toolNames: Object.freeze(env.tools.specs().map((s) => s.name)),
    roundsLeft: left.rounds,
    costLeftUsd: left.costUsd,
    signal,
  });
}

/** Steps 5–7: shape history for the route, add ephemeral layers (none by default), cache flag. */
export function prepareModelCall(env: TurnEnv, state: TurnState): Omit<LlmRequest, "model"> {
  const tools = env.tools.specs();
  return {
    system: env.systemPrompt,
    messages: env.shape(state.messages),
    ...(tools.length ? { tools } : {}),
    ...(env.maxOutputTokens ? { maxOutputTokens: env.maxOutputTokens } : {}),
    cache: true,
  };
}
