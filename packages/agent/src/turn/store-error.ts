// A store exception inside a turn (SPEC L5): the turn ends with `store_error` and an honest
// message naming what failed, never an escaped exception the front end would print as a trace.
import { ZERO_USAGE } from "@iris/llm";
import { isBusyError } from "@iris/store";
import type { AgentEvents } from "../events.js";
import type { TurnResult, TurnState } from "./types.js";

export function storeErrorResult(
  state: TurnState | undefined,
  err: unknown,
  events: AgentEvents,
): TurnResult {
  const why = isBusyError(err)
    ? "state.db stayed locked by another writer past the store's busy timeout; try again"
    : err instanceof Error
      ? err.message
      : String(err);
  const text = `Stopped: the session could not be saved (${why}). Nothing after the last saved message was kept.`;
  const taskId = state?.taskId ?? "task_unsaved";
  events.emit("turn_completed", { taskId, reason: "store_error", rounds: state?.rounds ?? 0 });
  return {
    taskId,
    reason: "store_error",
    text,
    rounds: state?.rounds ?? 0,
    usage: state?.usage ?? { ...ZERO_USAGE },
    costUsd: state?.costUsd ?? 0,
  };
}
