import { describe, expect, it } from "vitest";
import { buildSystemPrompt, buildSystemPromptLayers } from "./build.js";
import { DEFAULT_IDENTITY, DEFAULT_SUBAGENT_IDENTITY } from "./identity.js";
import type { PromptInputs } from "./types.js";

function inputs(over: Partial<PromptInputs> = {}): PromptInputs {
  return {
    identity: "You are Kestrel, a terse engineer.",
    toolNames: ["terminal", "memory", "read_file"],
    skills: [
      { name: "release", description: "Cut a release\nof the project" },
      { name: "deploy", description: "Deploy to staging" },
    ],
    environment: { os: "linux", shell: "/bin/bash", cwd: "/home/ann/proj" },
    callerSystemMessage: "CALLER-MESSAGE",
    projectContext: { path: "AGENTS.md", content: "PROJECT-RULES: run the tests." },
    memory: "MEMORY-NOTE: prefers pnpm",
    user: "USER-NOTE: lives in Seoul",
    memoryLimits: { memory: 2200, user: 1375 },
    date: "2026-11-30",
    model: "gpt-5",
    provider: "openai",
    ...over,
  };
}

describe("buildSystemPrompt", () => {
  it("two builds from equal inputs are byte-identical, whatever order tools and skills come in", () => {
    const a = buildSystemPrompt(inputs());
    const b = buildSystemPrompt(structuredClone(inputs()));
    expect(b).toBe(a);
    const shuffled = buildSystemPrompt(
      inputs({
        toolNames: ["read_file", "memory", "terminal"],
        skills: [
          { name: "deploy", description: "Deploy to staging" },
          { name: "release", description: "Cut a release\nof the project" },
        ],
      }),
    );
    expect(shuffled).toBe(a);
    // CRLF files give the same prompt as LF files.
    expect(buildSystemPrompt(inputs({ memory: "MEMORY-NOTE: prefers pnpm\r\n" }))).toBe(a);
  });

  it("orders the layers stable → context → volatile, with the date last", () => {
    const p = buildSystemPrompt(inputs());
    const order = [
      "You are Kestrel",
      "# Tool use",
      "# Skills",
      "# Environment",
      "CALLER-MESSAGE",
      "PROJECT-RULES",
      "MEMORY-NOTE",
      "USER-NOTE",
      "Model: gpt-5 (provider: openai)",
      "Conversation started: 2026-11-30",
    ].map((s) => p.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(p.endsWith("Conversation started: 2026-11-30")).toBe(true);
    const layers = buildSystemPromptLayers(inputs());
    expect(p).toBe(`${layers.stable}\n\n${layers.context}\n\n${layers.volatile}`);
  });

  it("gives guidance only for the tools present", () => {
    const p = buildSystemPrompt(inputs({ toolNames: ["memory"] }));
    expect(p).toContain("- memory:");
    expect(p).not.toContain("terminal:");
    expect(p).not.toContain("delegate_task");
    expect(buildSystemPrompt(inputs({ toolNames: [] }))).not.toContain("# Tool use");
  });

  it("lists skills by name with one-line descriptions", () => {
    const p = buildSystemPrompt(inputs());
    expect(p).toContain("- deploy: Deploy to staging\n- release: Cut a release of the project");
  });

  it("uses the default identity when SOUL.md is missing or blank", () => {
    expect(buildSystemPrompt(inputs({ identity: undefined })).startsWith(DEFAULT_IDENTITY)).toBe(true);
    expect(buildSystemPrompt(inputs({ identity: "  \n" })).startsWith(DEFAULT_IDENTITY)).toBe(true);
  });

  it("caps the project context with a marker saying how much was cut", () => {
    const content = `HEAD${"a".repeat(29_992)}${"z".repeat(10_000)}TAIL`;
    const p = buildSystemPrompt(inputs({ projectContext: { path: "AGENTS.md", content } }));
    const block = buildSystemPromptLayers(inputs({ projectContext: { path: "AGENTS.md", content } })).context;
    expect(p).toContain("HEAD");
    expect(p).toContain("TAIL");
    // 40,000 characters, 14,000 kept at the head and 4,000 at the tail: 22,000 cut.
    expect(block).toContain(
      "[... 22,000 characters of AGENTS.md cut here (40,000 in all, limit 20,000) ...]",
    );
    expect(block.length).toBeLessThan(20_000 + 200);
    const short = buildSystemPrompt(inputs());
    expect(short).not.toContain("cut here");
  });

  it("never splits a surrogate pair when cutting", () => {
    const content = "😀".repeat(15_000); // 30,000 UTF-16 units
    const block = buildSystemPromptLayers(inputs({ projectContext: { path: "AGENTS.md", content } })).context;
    expect(block).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });

  it("a subagent gets the default identity and no context layer", () => {
    const p = buildSystemPrompt(inputs({ subagent: true }));
    expect(p.startsWith(DEFAULT_SUBAGENT_IDENTITY)).toBe(true);
    expect(p).not.toContain("Kestrel");
    expect(p).not.toContain("CALLER-MESSAGE");
    expect(p).not.toContain("PROJECT-RULES");
    expect(buildSystemPromptLayers(inputs({ subagent: true })).context).toBe("");
    expect(p).toContain("Conversation started: 2026-11-30");
  });

  it("shows memory use against its limit", () => {
    expect(buildSystemPrompt(inputs())).toContain("(25 of 2,200 characters used)");
  });

  it("rejects a timestamp that is more than a date", () => {
    expect(() => buildSystemPrompt(inputs({ date: "2026-11-30T10:00:00Z" }))).toThrow(/YYYY-MM-DD/);
  });
});
