// Steps 1–3 of the turn (SPEC L2): task id, append the user message (after repairing a lone
// user message an earlier failed turn left, H1), reuse the frozen prompt.
import { type UserMessage, ZERO_USAGE } from "@iris/llm";
import type { RequestForRoute } from "../ports.js";
import type { TurnEnv } from "./env.js";
import { repairLoneUser } from "./repair-lone-user.js";
import type { StepSnapshot, TurnState } from "./types.js";

/** Without `input` the turn continues the history as it stands (tool results an API client sent). */
export async function prepareTurn(env: TurnEnv, input: UserMessage | undefined): Promise<TurnState> {
  const taskId = env.newTaskId();
  if (input) {
    await repairLoneUser(env, await env.log.history());
    await env.log.append(input);
  }
  return {
    taskId,
    startedAt: env.now(),
    messages: await env.log.history(),
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

/**
 * Steps 5–7 as a builder the model client calls per attempt (H4, F2): shape history for the route
 * that receives it, add ephemeral layers (none by default), the cache flag and what to ask of
 * the route's reasoning. A retry, a fallback and the return to the primary each get their own.
 */
export function prepareModelCall(env: TurnEnv, state: TurnState): RequestForRoute {
  const tools = env.tools.specs();
  const system = env.systemPrompt;
  const messages = state.messages;
  return (route) => {
    const reasoning = env.reasoningFor?.(route);
    return {
      system,
      messages: env.shape(messages, route),
      ...(tools.length ? { tools } : {}),
      ...(env.maxOutputTokens ? { maxOutputTokens: env.maxOutputTokens } : {}),
      ...(reasoning ? { reasoning } : {}),
      cache: true,
    };
  };
}
