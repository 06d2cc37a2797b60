// The turn (SPEC L2/L3). Each round: entry guards → context check → call model → run tools →
// checkpoint; tool rounds go back to building the request (step 5), never to the prompt (step 3).
// Keep this file thin: new behaviour belongs in tools, hooks and guards.
import type { UserMessage } from "@iris/llm";
import { callModel } from "./call-model.js";
import type { TurnEnv } from "./env.js";
import { finishTurn } from "./finish.js";
import { observeReply, observeRound } from "./observe.js";
import { checkContext, recoverFromOverflow } from "./overflow.js";
import { prepareModelCall, prepareTurn, takeSnapshot } from "./prepare.js";
import { runTools } from "./run-tools.js";
import type { TurnResult, TurnState } from "./types.js";

export async function runTurn(
  env: TurnEnv,
  input: UserMessage | undefined,
  signal: AbortSignal,
  onState?: (s: TurnState) => void,
): Promise<TurnResult> {
  const state = await prepareTurn(env, input);
  onState?.(state);
  while (!state.termination) {
    if (signal.aborted) {
      state.termination = { reason: "user_cancelled", text: "Interrupted." };
      break;
    }
    const verdict = env.guards.check({
      rounds: state.rounds,
      turnStartedAt: state.startedAt,
      turnCostUsd: state.costUsd,
      now: env.now(),
    });
    if (!verdict.ok) {
      state.termination = { reason: verdict.reason, text: verdict.text };
      break;
    }
    if (!(await checkContext(env, state, signal))) break;
    const snap = takeSnapshot(env, state, signal);
    const reply = await callModel(env, state, snap, prepareModelCall(env, state));
    if (!reply && (await recoverFromOverflow(env, state, snap.round, signal))) continue;
    if (!reply) break;
    const { nodeId, calls } = await observeReply(env, state, reply);
    if (state.termination || !calls.length || !nodeId) continue;
    const outcomes = await runTools(env, state, snap, calls, nodeId);
    if (!state.termination) await observeRound(env, state, outcomes);
  }
  return await finishTurn(env, state);
}
