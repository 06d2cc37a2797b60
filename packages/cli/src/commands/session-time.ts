// The session budget (SPEC L4) as the user reads it: the time the agent worked (the sum of turn
// durations, idle time excluded) against the budget, and what is left.
import type { ActiveTime } from "@iris/host";

function fmt(ms: number): string {
  const min = Math.round(ms / 60_000);
  if (min >= 60) return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, "0")} min`;
  if (ms >= 60_000) return `${min} min`;
  return `${Math.round(ms / 1000)} s`;
}

export function formatSessionTime(active: ActiveTime, budgetSeconds: number): string {
  const budgetMs = budgetSeconds * 1000;
  const left = Math.max(0, budgetMs - active.activeMs);
  const turns = `${active.turns} turn${active.turns === 1 ? "" : "s"}`;
  return `agent time: ${fmt(active.activeMs)} of ${fmt(budgetMs)} in ${turns}; ${fmt(left)} left (idle time is not counted)\n`;
}
