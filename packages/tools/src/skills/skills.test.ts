// Skills (SPEC K4): loading from the profile and the project, an invalid SKILL.md reported with
// its path and line and skipped, platforms, skill_view with the files beside the body, and
// skill_manage through the dispatcher with approval.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApprovalMemory } from "../approval/memory.js";
import { createApprovalPolicy } from "../approval/policy.js";
import { dispatchToolCall } from "../dispatch/dispatch.js";
import { makeTestContext } from "../fs/test-context.js";
import { loadBuiltinTools } from "../registry/load-builtin.js";
import { ToolRegistry } from "../registry/registry.js";
import { projectSkillRoots, SkillLibrary } from "./library.js";

let dir: TempDir;
let profile: string;
let project: string;
beforeEach(() => {
  dir = tempDir("iris-skills");
  profile = join(dir.path, "skills");
  project = join(dir.path, "work", ".iris", "skills");
});
afterEach(() => dir.cleanup());

function skill(root: string, name: string, text: string, extra: Record<string, string> = {}): void {
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(join(root, name, "SKILL.md"), text);
  for (const [f, body] of Object.entries(extra)) {
    mkdirSync(join(root, name, f, ".."), { recursive: true });
    writeFileSync(join(root, name, f), body);
  }
}
const md = (name: string, description: string, more = "") =>
  `---\nname: ${name}\ndescription: ${description}\n${more}---\n# ${name}\nDo the steps.\n`;

describe("SkillLibrary", () => {
  it("finds project skills in .iris, .claude and .agents from a sub-folder, up to the repository root", () => {
    const repo = join(dir.path, "work");
    mkdirSync(join(repo, ".git"), { recursive: true });
    skill(join(repo, ".claude", "skills"), "pdf", md("pdf", "Claude's pdf skill"));
    skill(join(repo, ".agents", "skills"), "lint", md("lint", "Lint the code"));
    skill(join(repo, ".agents", "skills"), "pdf", md("pdf", "Loses to .claude's"));
    skill(join(repo, "pkg", ".iris", "skills"), "lint", md("lint", "The sub-folder's lint"));
    // Above the repository's root: not the project's.
    skill(join(dir.path, ".claude", "skills"), "outside", md("outside", "Not in the project"));
    const sub = join(repo, "pkg", "src");
    mkdirSync(sub, { recursive: true });
    const lib = new SkillLibrary({ profile, project: projectSkillRoots(sub) });
    expect(lib.skills.map((s) => [s.name, s.scope, s.description])).toEqual([
      ["lint", "project", "The sub-folder's lint"],
      ["pdf", "project", "Claude's pdf skill"],
    ]);
    expect(lib.view("pdf").content).toContain("Do the steps.");
  });

  it("loads profile and project skills, the project's winning a name clash; platforms filter", () => {
    skill(profile, "deploy", md("deploy", "Deploy the site"));
    skill(profile, "review", md("review", "Profile review"));
    skill(project, "review", md("review", "Project review", "allowed_tools: [read_file, search_files]\n"));
    skill(profile, "tg-only", md("tg-only", "Only on the gateway", "platforms: [gateway]\n"));
    const lib = new SkillLibrary({ profile, project }, "cli");
    expect(lib.skills.map((s) => [s.name, s.scope, s.description])).toEqual([
      ["deploy", "profile", "Deploy the site"],
      ["review", "project", "Project review"],
    ]);
    expect(lib.get("review")?.allowedTools).toEqual(["read_file", "search_files"]);
    expect(new SkillLibrary({ profile }, "gateway").get("tg-only")).toBeDefined();
  });

  it("reports an invalid SKILL.md with its path and line, and skips it", () => {
    skill(profile, "good", md("good", "Fine"));
    skill(profile, "bad-yaml", "---\nname: bad-yaml\ndescription: [unclosed\n---\nbody\n");
    skill(profile, "no-desc", "---\nname: no-desc\ndescription: ''\n---\nbody\n");
    skill(profile, "wrong-name", md("other", "Name and folder differ"));
    const lib = new SkillLibrary({ profile });
    expect(lib.skills.map((s) => s.name)).toEqual(["good"]);
    const problems = lib.problems.join("\n");
    expect(problems).toContain(`${join(profile, "bad-yaml", "SKILL.md")}:`);
    expect(problems).toMatch(/no-desc[/\\]SKILL\.md:3: 'description': must not be empty/);
    expect(problems).toMatch(/wrong-name[/\\]SKILL\.md:2: 'name' is 'other' but the folder is 'wrong-name'/);
  });
});

describe("skill tools", () => {
  async function setup() {
    const registry = new ToolRegistry({ logger: { warn: () => undefined } });
    await loadBuiltinTools(registry);
    const lib = new SkillLibrary({ profile });
    return { registry, lib };
  }

  it("skill_view returns the body and the files beside it, or one of them; never a file outside", async () => {
    skill(profile, "deploy", md("deploy", "Deploy the site"), { "scripts/run.sh": "echo deploy\n" });
    const { registry, lib } = await setup();
    const ctx = { ...makeTestContext({ cwd: dir.path }), skills: lib };
    const policy = createApprovalPolicy({ mode: "manual" });
    const view = await dispatchToolCall(
      registry,
      { name: "skill_view", argumentsJson: '{"name":"deploy"}' },
      ctx,
      policy,
    );
    expect(JSON.parse(view.content)).toMatchObject({
      content: "# deploy\nDo the steps.",
      files: ["scripts/run.sh"],
    });
    const file = await dispatchToolCall(
      registry,
      { name: "skill_view", argumentsJson: '{"name":"deploy","file":"scripts/run.sh"}' },
      ctx,
      policy,
    );
    expect(JSON.parse(file.content).content).toBe("echo deploy\n");
    const outside = await dispatchToolCall(
      registry,
      { name: "skill_view", argumentsJson: '{"name":"deploy","file":"../../etc/passwd"}' },
      ctx,
      policy,
    );
    expect(outside.isError).toBe(true);
    expect(outside.content).toContain("outside the skill's folder");
  });

  it("skill_manage asks for approval, writes only valid skills, and the change shows in the next library", async () => {
    const { registry, lib } = await setup();
    const policy = createApprovalPolicy({ mode: "manual" });
    const args = JSON.stringify({ action: "create", name: "notes", content: md("notes", "Take notes") });
    const denied = await dispatchToolCall(
      registry,
      { name: "skill_manage", argumentsJson: args },
      { ...makeTestContext({ cwd: dir.path, approval: "deny" }), skills: lib },
      policy,
    );
    expect(JSON.parse(denied.content)).toMatchObject({ denied: true });
    const approved = { ...makeTestContext({ cwd: dir.path, approval: "once" }), skills: lib };
    const made = await dispatchToolCall(
      registry,
      { name: "skill_manage", argumentsJson: args },
      approved,
      policy,
    );
    expect(made.isError).toBe(false);
    expect(readFileSync(join(profile, "notes", "SKILL.md"), "utf8")).toContain("description: Take notes");
    // The running session's list is unchanged (S2); the next one sees it.
    expect(lib.get("notes")).toBeUndefined();
    expect(new SkillLibrary({ profile }).get("notes")?.description).toBe("Take notes");

    const invalid = await dispatchToolCall(
      registry,
      {
        name: "skill_manage",
        argumentsJson: JSON.stringify({ action: "edit", name: "notes", content: "no front matter" }),
      },
      approved,
      policy,
    );
    expect(invalid.isError).toBe(true);
    expect(invalid.content).toContain("SKILL.md:1: no front matter");
    const gone = await dispatchToolCall(
      registry,
      { name: "skill_manage", argumentsJson: '{"action":"delete","name":"notes"}' },
      approved,
      policy,
    );
    expect(gone.isError).toBe(false);
    expect(new SkillLibrary({ profile }).get("notes")).toBeUndefined();
  });

  it("allowed_tools: a loaded profile skill pre-approves its tools for the session; hard blocks hold", async () => {
    skill(profile, "notes", md("notes", "Keep notes", "allowed_tools: [skill_manage, terminal]\n"));
    skill(project, "repo-skill", md("repo-skill", "From the repository", "allowed-tools: skill_manage\n"));
    const { registry } = await setup();
    const lib = new SkillLibrary({ profile, project });
    const asked: string[] = [];
    const memory = new ApprovalMemory();
    const ctx = {
      ...makeTestContext({ cwd: dir.path }),
      skills: lib,
      approvalMemory: memory,
      approve: async (r: { patternKey: string }) => {
        asked.push(r.patternKey);
        return "deny" as const;
      },
    };
    const policy = createApprovalPolicy({ mode: "manual" });
    const run = (name: string, args: object) =>
      dispatchToolCall(registry, { name, argumentsJson: JSON.stringify(args) }, ctx, policy);
    const create = { action: "create", name: "made", content: md("made", "Made by the agent") };

    expect(JSON.parse((await run("skill_manage", create)).content)).toMatchObject({ denied: true });
    // A project skill comes with the working directory: its list grants nothing.
    const fromRepo = JSON.parse((await run("skill_view", { name: "repo-skill" })).content);
    expect(fromRepo.allowed_tools_not_granted).toContain("skill_manage");
    expect(JSON.parse((await run("skill_manage", create)).content)).toMatchObject({ denied: true });
    expect(asked).toEqual(["skill_manage:create", "skill_manage:create"]);

    const loaded = JSON.parse((await run("skill_view", { name: "notes" })).content);
    expect(loaded.pre_approved_tools).toEqual(["skill_manage", "terminal"]);
    const made = await run("skill_manage", create);
    expect(made.isError).toBe(false);
    expect(asked).toHaveLength(2); // not asked again
    expect(new SkillLibrary({ profile }).get("made")).toBeDefined();
    // A hard-blocked command stays blocked whatever a skill says.
    const blocked = await run("terminal", { command: "rm -rf /" });
    expect(blocked.isError).toBe(true);
    expect(blocked.content).toContain("blocked");
    // Another session's memory knows nothing of it.
    const other = await dispatchToolCall(
      registry,
      {
        name: "skill_manage",
        argumentsJson: JSON.stringify({ ...create, name: "other", content: md("other", "x") }),
      },
      { ...ctx, approvalMemory: new ApprovalMemory() },
      policy,
    );
    expect(JSON.parse(other.content)).toMatchObject({ denied: true });
  });

  it("skill_manage names the tools a skill would pre-approve, under its own approval key", async () => {
    const { registry, lib } = await setup();
    const requests: { patternKey: string; reason: string }[] = [];
    const ctx = {
      ...makeTestContext({ cwd: dir.path }),
      skills: lib,
      approve: async (r: { patternKey: string; reason: string }) => {
        requests.push(r);
        return "deny" as const;
      },
    };
    const content = md("granting", "Grants tools", "allowed_tools: terminal write_file\n");
    await dispatchToolCall(
      registry,
      {
        name: "skill_manage",
        argumentsJson: JSON.stringify({ action: "create", name: "granting", content }),
      },
      ctx,
      createApprovalPolicy({ mode: "manual", allowKeys: ["skill_manage:create"] }),
    );
    expect(requests).toEqual([
      expect.objectContaining({
        patternKey: "skill_manage:allowed_tools",
        reason: "create a skill that pre-approves these tools when loaded: terminal, write_file",
      }),
    ]);
  });
});
