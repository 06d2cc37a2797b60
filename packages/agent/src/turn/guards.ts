// Round-entry guards (SPEC L4): rounds, wall-clock budget, session budget with one hand-off hook,
// cost budget with one 80 % warning. Pure apart from the events it emits once.
import type { AgentEvents } from "../events.js";
import type { TerminationReason } from "./types.js";

export interface BudgetConfig {
  /** 0 = unlimited. Default 90. */
  maxRounds: number;
  /** Wall-clock budget of this turn. */
  timeBudgetMs?: number;
  /**
   * Session budget (default 2 h) of time the agent works: the sum of turn durations, so idle
   * hours between turns cost nothing (a conversation can be continued days later).
   */
  sessionBudgetMs?: number;
  /** What earlier turns of the session worked, in ms (this turn's time is added live). */
  sessionActiveMs?: number;
  /** Hand-off hook fires this long before the session budget expires. */
  handoffLeadMs?: number;
  costBudgetUsd?: number;
  /** What the session had spent before this turn. */
  sessionCostUsd?: number;
}

export type GuardVerdict = { ok: true } | { ok: false; reason: TerminationReason; text: string };

export class RoundGuards {
  private handoffFired = false;
  private costWarned = false;

  constructor(
    private readonly cfg: BudgetConfig,
    private readonly events: AgentEvents,
    private readonly sessionId?: string,
  ) {}

  /** What is left of the round and cost budgets (null = unlimited), for the step snapshot. */
  left(input: { rounds: number; turnCostUsd: number }): { rounds: number | null; costUsd: number | null } {
    const { cfg } = this;
    return {
      rounds: cfg.maxRounds > 0 ? Math.max(0, cfg.maxRounds - input.rounds) : null,
      costUsd: cfg.costBudgetUsd
        ? Math.max(0, cfg.costBudgetUsd - (cfg.sessionCostUsd ?? 0) - input.turnCostUsd)
        : null,
    };
  }

  /** What is left of the turn and session time budgets (undefined = no limit), for the model call. */
  timeLeftMs(input: { turnStartedAt: number; now: number }): number | undefined {
    const { cfg } = this;
    const spent = Math.max(0, input.now - input.turnStartedAt);
    const left: number[] = [];
    if (cfg.timeBudgetMs !== undefined) left.push(cfg.timeBudgetMs - spent);
    if (cfg.sessionBudgetMs !== undefined)
      left.push(cfg.sessionBudgetMs - (cfg.sessionActiveMs ?? 0) - spent);
    return left.length ? Math.max(0, Math.min(...left)) : undefined;
  }

  check(input: { rounds: number; turnStartedAt: number; turnCostUsd: number; now: number }): GuardVerdict {
    const { cfg } = this;
    if (cfg.maxRounds > 0 && input.rounds >= cfg.maxRounds)
      return stop("max_rounds", `Stopped after ${input.rounds} rounds (max_rounds is ${cfg.maxRounds}).`);
    if (cfg.timeBudgetMs !== undefined && input.now - input.turnStartedAt >= cfg.timeBudgetMs)
      return stop(
        "time_budget_expired",
        `Stopped: the turn used its time budget of ${fmtMs(cfg.timeBudgetMs)}.`,
      );
    if (cfg.sessionBudgetMs !== undefined) {
      const worked = (cfg.sessionActiveMs ?? 0) + Math.max(0, input.now - input.turnStartedAt);
      const left = cfg.sessionBudgetMs - worked;
      if (left <= 0)
        return stop(
          "time_budget_expired",
          `Stopped: the agent worked ${fmtMs(cfg.sessionBudgetMs)} in this session, its budget. Start a new session to go on.`,
        );
      if (!this.handoffFired && left <= (cfg.handoffLeadMs ?? 5 * 60_000)) {
        this.handoffFired = true;
        this.events.emit("handoff_triggered", {
          ...(this.sessionId ? { sessionId: this.sessionId } : {}),
          remainingMs: left,
        });
      }
    }
    if (cfg.costBudgetUsd !== undefined && cfg.costBudgetUsd > 0) {
      const spent = (cfg.sessionCostUsd ?? 0) + input.turnCostUsd;
      if (spent >= cfg.costBudgetUsd)
        return stop(
          "cost_budget_exceeded",
          `Stopped: spent $${spent.toFixed(4)} of the $${cfg.costBudgetUsd.toFixed(2)} cost budget.`,
        );
      if (!this.costWarned && spent >= 0.8 * cfg.costBudgetUsd) {
        this.costWarned = true;
        this.events.emit("cost_warning", { spentUsd: spent, budgetUsd: cfg.costBudgetUsd });
        this.events.emit("status", {
          level: "warn",
          message: `Cost: $${spent.toFixed(4)} spent, 80 % of the $${cfg.costBudgetUsd.toFixed(2)} budget.`,
        });
      }
    }
    return { ok: true };
  }
}

function stop(reason: TerminationReason, text: string): GuardVerdict {
  return { ok: false, reason, text };
}

export function fmtMs(ms: number): string {
  if (ms >= 3_600_000) return `${(ms / 3_600_000).toFixed(1)} h`;
  if (ms >= 60_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 1000)} s`;
}
