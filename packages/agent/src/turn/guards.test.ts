import { describe, expect, it } from "vitest";
import { AgentEvents } from "../events.js";
import { ConvergenceDetector } from "./convergence.js";
import { RoundGuards } from "./guards.js";

const base = { rounds: 0, turnStartedAt: 0, turnCostUsd: 0, now: 0 };

describe("RoundGuards", () => {
  it("stops at max_rounds and treats 0 as unlimited", () => {
    const g = new RoundGuards({ maxRounds: 3 }, new AgentEvents());
    expect(g.check({ ...base, rounds: 2 }).ok).toBe(true);
    expect(g.check({ ...base, rounds: 3 })).toMatchObject({ ok: false, reason: "max_rounds" });
    expect(new RoundGuards({ maxRounds: 0 }, new AgentEvents()).check({ ...base, rounds: 10_000 }).ok).toBe(
      true,
    );
  });

  it("stops when the turn's wall-clock budget is spent", () => {
    const g = new RoundGuards({ maxRounds: 0, timeBudgetMs: 1000 }, new AgentEvents());
    expect(g.check({ ...base, now: 999 }).ok).toBe(true);
    expect(g.check({ ...base, now: 1000 })).toMatchObject({ ok: false, reason: "time_budget_expired" });
  });

  it("fires the hand-off hook once before the session budget ends, then stops at expiry", () => {
    const events = new AgentEvents();
    const fired: number[] = [];
    events.on("handoff_triggered", (p) => fired.push(p.remainingMs));
    const g = new RoundGuards(
      { maxRounds: 0, sessionBudgetMs: 10_000, sessionActiveMs: 0, handoffLeadMs: 2_000 },
      events,
    );
    expect(g.check({ ...base, now: 7_000 }).ok).toBe(true);
    expect(g.check({ ...base, now: 8_500 }).ok).toBe(true);
    expect(g.check({ ...base, now: 9_000 }).ok).toBe(true);
    expect(fired).toEqual([1_500]);
    expect(g.check({ ...base, now: 10_000 })).toMatchObject({ ok: false, reason: "time_budget_expired" });
  });

  it("counts only the time the agent worked: idle hours between turns cost nothing", () => {
    const g = new RoundGuards(
      { maxRounds: 0, sessionBudgetMs: 10_000, sessionActiveMs: 9_000 },
      new AgentEvents(),
    );
    const later = 3 * 3_600_000;
    expect(g.check({ ...base, turnStartedAt: later, now: later + 999 }).ok).toBe(true);
    expect(g.check({ ...base, turnStartedAt: later, now: later + 1_000 })).toMatchObject({
      ok: false,
      reason: "time_budget_expired",
    });
  });

  it("warns once at 80 % of the cost budget and stops at 100 %", () => {
    const events = new AgentEvents();
    const warnings: number[] = [];
    events.on("cost_warning", (p) => warnings.push(p.spentUsd));
    const g = new RoundGuards({ maxRounds: 0, costBudgetUsd: 1, sessionCostUsd: 0.5 }, events);
    expect(g.check({ ...base, turnCostUsd: 0.2 }).ok).toBe(true);
    expect(g.check({ ...base, turnCostUsd: 0.3 }).ok).toBe(true);
    expect(g.check({ ...base, turnCostUsd: 0.4 }).ok).toBe(true);
    expect(warnings).toEqual([0.8]);
    expect(g.check({ ...base, turnCostUsd: 0.5 })).toMatchObject({
      ok: false,
      reason: "cost_budget_exceeded",
    });
  });
});

describe("ConvergenceDetector", () => {
  const fail = (args: string) => ({ name: "terminal", argumentsJson: args, isError: true });
  it("detects the same failing call repeated, whatever the key order or spacing", () => {
    const d = new ConvergenceDetector(3);
    expect(d.observe([fail('{"a":1,"b":2}')])).toBe(false);
    expect(d.observe([fail('{"b": 2, "a": 1}')])).toBe(false);
    expect(d.observe([fail('{"a":1,"b":2}')])).toBe(true);
  });
  it("resets on success or on a different call", () => {
    const d = new ConvergenceDetector(3);
    d.observe([fail("{}"), fail("{}")]);
    expect(d.observe([{ name: "terminal", argumentsJson: "{}", isError: false }])).toBe(false);
    expect(d.observe([fail("{}"), fail('{"x":1}'), fail("{}")])).toBe(false);
  });
});
