// The skills index of the stable layer stays within SKILLS_INDEX_MAX_CHARS: names and one-line
// descriptions in name order, then a count of those left out (SPEC K4, S1).
import { describe, expect, it } from "vitest";
import { buildSystemPromptLayers, SKILLS_INDEX_MAX_CHARS } from "./build.js";
import type { PromptInputs } from "./types.js";

function inputs(skills: PromptInputs["skills"]): PromptInputs {
  return {
    toolNames: ["skill_view", "skills_list"],
    skills,
    environment: { os: "linux", cwd: "/w" },
    date: "2026-12-01",
    model: "m",
    provider: "p",
  };
}

describe("skills index budget", () => {
  it("lists what fits and counts the rest", () => {
    const many = Array.from({ length: 100 }, (_, i) => ({
      name: `skill-${String(i).padStart(3, "0")}`,
      description: `${"does a careful thing ".repeat(9)}#${i}`,
    }));
    const { stable } = buildSystemPromptLayers(inputs(many));
    const index = stable.slice(stable.indexOf("# Skills"), stable.indexOf("# Environment"));
    expect(index.length).toBeLessThanOrEqual(SKILLS_INDEX_MAX_CHARS);
    expect(index).toContain("- skill-000: does a careful thing");
    expect(index).not.toContain("skill-099");
    const listed = (index.match(/^- skill-/gm) ?? []).length;
    expect(listed).toBeGreaterThan(5);
    expect(index).toContain(`(${100 - listed} more skills not listed here; skills_list shows them all.)`);
  });

  it("a short list is shown whole with no count line", () => {
    const { stable } = buildSystemPromptLayers(inputs([{ name: "deploy", description: "Deploy it" }]));
    expect(stable).toContain("- deploy: Deploy it");
    expect(stable).not.toContain("more skill");
  });
});
