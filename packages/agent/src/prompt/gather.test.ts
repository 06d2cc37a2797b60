import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildSystemPrompt } from "./build.js";
import { dateOnly, findProjectContext, gatherPromptInputs } from "./gather.js";

const temps: string[] = [];
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "iris-prompt-"));
  temps.push(root);
  for (const [rel, text] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(join(p, ".."), { recursive: true });
    writeFileSync(p, text);
  }
  return root;
}
function home(root: string) {
  return {
    soul: join(root, "home/SOUL.md"),
    memory: join(root, "home/MEMORY.md"),
    user: join(root, "home/USER.md"),
  };
}
const NOW = new Date(2026, 10, 30, 23, 59);

describe("findProjectContext", () => {
  it("the first of .iris.md, AGENTS.md, CLAUDE.md wins within a folder", () => {
    const root = tree({ "p/AGENTS.md": "agents", "p/CLAUDE.md": "claude", "p/.iris.md": "iris" });
    expect(findProjectContext(join(root, "p"))).toEqual({ path: ".iris.md", content: "iris" });
    rmSync(join(root, "p/.iris.md"));
    expect(findProjectContext(join(root, "p"))).toEqual({ path: "AGENTS.md", content: "agents" });
    rmSync(join(root, "p/AGENTS.md"));
    expect(findProjectContext(join(root, "p"))?.content).toBe("claude");
  });

  it("walks up to the git root, nearest folder first, and no further", () => {
    const root = tree({
      "AGENTS.md": "above the repo",
      "repo/.git/HEAD": "ref: refs/heads/main",
      "repo/AGENTS.md": "repo rules",
      "repo/pkg/sub/file.txt": "",
    });
    expect(findProjectContext(join(root, "repo/pkg/sub"))).toEqual({
      path: "../../AGENTS.md",
      content: "repo rules",
    });
    writeFileSync(join(root, "repo/pkg/CLAUDE.md"), "pkg rules");
    expect(findProjectContext(join(root, "repo/pkg/sub"))?.content).toBe("pkg rules");
    rmSync(join(root, "repo/AGENTS.md"));
    rmSync(join(root, "repo/pkg/CLAUDE.md"));
    expect(findProjectContext(join(root, "repo/pkg/sub"))).toBeUndefined();
  });

  it("outside a repository only the working folder is searched", () => {
    const root = tree({ "AGENTS.md": "parent", "work/x.txt": "" });
    expect(findProjectContext(join(root, "work"))).toBeUndefined();
  });
});

describe("gatherPromptInputs", () => {
  it("reads SOUL.md, MEMORY.md, USER.md and the project file once, into plain values", () => {
    const root = tree({
      "home/SOUL.md": "You are Wren.",
      "home/MEMORY.md": "likes tea",
      "home/USER.md": "name: Ann",
      "proj/AGENTS.md": "be careful",
    });
    const inputs = gatherPromptInputs({
      homePaths: home(root),
      cwd: join(root, "proj"),
      toolNames: ["memory"],
      model: "m",
      provider: "p",
      now: NOW,
      os: "linux",
      shell: "/bin/sh",
    });
    expect(inputs).toMatchObject({
      identity: "You are Wren.",
      memory: "likes tea",
      user: "name: Ann",
      projectContext: { path: "AGENTS.md", content: "be careful" },
      date: "2026-11-30",
      environment: { os: "linux", shell: "/bin/sh", cwd: join(root, "proj") },
    });
  });

  it("memory written after the build does not change the built prompt; the next session sees it", () => {
    const root = tree({ "home/MEMORY.md": "first note", "proj/x": "" });
    const opts = {
      homePaths: home(root),
      cwd: join(root, "proj"),
      toolNames: ["memory"],
      model: "m",
      provider: "p",
      now: NOW,
      os: "linux",
      shell: "/bin/sh",
    };
    const frozen = buildSystemPrompt(gatherPromptInputs(opts));
    const copy = frozen.slice();
    writeFileSync(join(root, "home/MEMORY.md"), "first note\nsecond note");
    expect(frozen).toBe(copy);
    expect(frozen).not.toContain("second note");
    const next = buildSystemPrompt(gatherPromptInputs(opts));
    expect(next).toContain("second note");
    // Re-gathering with nothing changed reproduces the same bytes.
    expect(buildSystemPrompt(gatherPromptInputs(opts))).toBe(next);
  });

  it("a subagent reads neither SOUL.md, project files nor memory", () => {
    const root = tree({
      "home/SOUL.md": "You are Wren.",
      "home/MEMORY.md": "secret-ish",
      "proj/AGENTS.md": "rules",
    });
    const inputs = gatherPromptInputs({
      homePaths: home(root),
      cwd: join(root, "proj"),
      toolNames: [],
      model: "m",
      provider: "p",
      now: NOW,
      subagent: true,
      callerSystemMessage: "caller",
    });
    expect(inputs.subagent).toBe(true);
    expect(inputs.identity).toBeUndefined();
    expect(inputs.projectContext).toBeUndefined();
    expect(inputs.memory).toBeUndefined();
    const p = buildSystemPrompt(inputs);
    expect(p).not.toContain("Wren");
    expect(p).not.toContain("rules");
    expect(p).not.toContain("caller");
  });

  it("formats the date only, in local time or a given time zone", () => {
    expect(dateOnly(new Date(2026, 0, 5, 8))).toBe("2026-01-05");
    expect(dateOnly(new Date(Date.UTC(2026, 10, 30, 20)), "Asia/Seoul")).toBe("2026-12-01");
  });
});
