import { describe, expect, it } from "vitest";
import { findClosestRegion, similarity } from "./closest-match.js";

describe("findClosestRegion", () => {
  const file = ["alpha()", "beta(1, 2)", "gamma", "delta", "beta(3, 4)", "epsilon"].join("\n");

  it("picks the window whose lines are most alike", () => {
    const r = findClosestRegion(file, "beta(3, 5)\nepsilon");
    expect(r?.startLine).toBe(5);
    expect(r?.lines).toEqual(["beta(3, 4)", "epsilon"]);
    expect(r?.score).toBeGreaterThan(0.8);
    expect(r?.score).toBeLessThan(1);
  });

  it("ignores indentation differences", () => {
    expect(findClosestRegion(file, "    gamma\n  delta")).toMatchObject({ startLine: 3, score: 1 });
  });

  it("returns nothing for an empty file", () => {
    expect(findClosestRegion("", "x")).toBeUndefined();
  });

  it("similarity is 1 for equal and 0 for disjoint strings", () => {
    expect(similarity("abc", "abc")).toBe(1);
    expect(similarity("abc", "xyz")).toBe(0);
  });
});
