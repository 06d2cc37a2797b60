import { describe, expect, it } from "vitest";
import { computeContextBudget } from "./budget.js";
import { createDefaultContextEngine } from "./engine.js";
import { createContextEngine, registerContextEngine } from "./registry.js";

describe("computeContextBudget", () => {
  it("reproduces the 60K worked example of the seeds", () => {
    const b = computeContextBudget({ contextWindow: 60_000 });
    expect(b.triggerTokens).toBe(45_000);
    expect(b.tailBudgetTokens).toBe(9_000);
    expect(b.summaryCapTokens).toBe(3_000);
    expect(b.gatewayTokens).toBe(51_000);
    expect(b.protectLastN).toBe(20);
    expect(b.headMessages).toBe(3);
    expect(b.thresholdUsed).toBe(0.75);
    expect(b.thresholdSource).toBe("floor");
  });

  it("keeps the configured threshold for windows of 512K and more, and caps the summary at 12,000", () => {
    const b = computeContextBudget({ contextWindow: 1_000_000 });
    expect(b.triggerTokens).toBe(500_000);
    expect(b.tailBudgetTokens).toBe(100_000);
    expect(b.summaryCapTokens).toBe(12_000);
    expect(b.gatewayTokens).toBe(850_000);
    expect(b.thresholdSource).toBe("default");
  });

  it("lets a per-model override win, with the small-window floor still applied", () => {
    expect(computeContextBudget({ contextWindow: 1_000_000, perModelThreshold: 0.3 }).triggerTokens).toBe(
      300_000,
    );
    const raised = computeContextBudget({ contextWindow: 272_000, perModelThreshold: 0.85 });
    expect(raised.triggerTokens).toBe(231_200);
    expect(raised.thresholdSource).toBe("per-model");
    expect(computeContextBudget({ contextWindow: 200_000, perModelThreshold: 0.4 }).thresholdUsed).toBe(0.75);
  });

  it("names what is wrong with bad input", () => {
    expect(() => computeContextBudget({ contextWindow: 0 })).toThrow(/contextWindow/);
    expect(() => computeContextBudget({ contextWindow: 60_000, threshold: 1.5 })).toThrow(/threshold/);
  });
});

describe("default engine budget", () => {
  it("re-resolves per-model overrides on every model (switch, fallback)", () => {
    const engine = createDefaultContextEngine({ perModelThresholds: { "big-1m": 0.2, "codex/gpt-x": 0.85 } });
    expect(engine.budget({ id: "big-1m", contextWindow: 1_000_000 }).triggerTokens).toBe(200_000);
    expect(engine.budget({ id: "gpt-x", provider: "codex", contextWindow: 272_000 }).thresholdUsed).toBe(
      0.85,
    );
    expect(engine.budget({ id: "gpt-x", provider: "other", contextWindow: 400_000 }).thresholdUsed).toBe(
      0.75,
    );
    const b = engine.budget({ id: "small", contextWindow: 60_000 });
    expect(engine.shouldCompress(44_999, b)).toBe(false);
    expect(engine.shouldCompress(45_000, b)).toBe(true);
  });
});

describe("context engine registry", () => {
  it("creates the default engine by name and names the unknown ones", () => {
    expect(createContextEngine().name).toBe("default");
    expect(() => createContextEngine("lossless")).toThrow(
      /unknown context engine "lossless"; known: default/,
    );
    registerContextEngine("test-only", (o) => ({ ...createDefaultContextEngine(o), name: "test-only" }));
    expect(createContextEngine("test-only").name).toBe("test-only");
    expect(() => registerContextEngine("default", createDefaultContextEngine)).toThrow(/already registered/);
  });
});
