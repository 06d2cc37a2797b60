import { describe, expect, it } from "vitest";
import { ZERO_USAGE } from "../types.js";
import { estimateCost } from "./cost.js";

const info = { price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };

describe("estimateCost", () => {
  it("charges uncached input, cache reads, cache writes and output at their own prices", () => {
    const usage = {
      ...ZERO_USAGE,
      inputTokens: 1_000_000,
      cacheReadTokens: 600_000,
      cacheWriteTokens: 100_000,
      outputTokens: 200_000,
    };
    // 300k × 3 + 600k × 0.3 + 100k × 3.75 + 200k × 15, per million
    expect(estimateCost(usage, info)).toBeCloseTo(0.9 + 0.18 + 0.375 + 3, 10);
  });

  it("is zero for zero usage and never negative on odd reports", () => {
    expect(estimateCost(ZERO_USAGE, info)).toBe(0);
    const odd = { ...ZERO_USAGE, inputTokens: 10, cacheReadTokens: 50 };
    expect(estimateCost(odd, info)).toBeCloseTo((50 * 0.3) / 1e6, 12);
  });
});
