// Project skills where users of other agents keep them (.claude/skills, .agents/skills, beside
// .iris/skills), found from a sub-folder of the repository: `iris skills list` shows them and a
// session's system prompt offers them.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, runIris, type TempHome } from "./helpers.js";

let fake: FakeLlm;
let home: TempHome;
let work: string;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ fake, home, work, close } = await fakeHome(true));
});
afterEach(() => close());

function skill(root: string, name: string, description: string): void {
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(
    join(root, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\n---\nSteps.\n`,
  );
}

describe("project skills", () => {
  it("come from .claude/skills and .agents/skills of the repository, seen from a sub-folder", async () => {
    mkdirSync(join(work, ".git"));
    skill(join(work, ".claude", "skills"), "release-notes", "Write the release notes");
    skill(join(work, ".agents", "skills"), "triage", "Triage an issue");
    const sub = join(work, "packages", "app");
    mkdirSync(sub, { recursive: true });
    const env = { IRIS_HOME: home.home };
    const list = await runIris(["skills", "list"], { env, cwd: sub });
    expect(list.stderr).toBe("");
    expect(list.stdout).toBe(
      "release-notes  (project)  Write the release notes\ntriage  (project)  Triage an issue\n",
    );
    fake.enqueue({ text: "ok" });
    const run = await runIris(["-p", "hi", ...routeArgs(fake.baseUrl, "chat_completions")], {
      env,
      cwd: sub,
    });
    expect(run.stdout).toBe("ok\n");
    const system = (
      fake.requests[0]!.body as { messages: { role: string; content: string }[] }
    ).messages.find((m) => m.role === "system")!.content;
    expect(system).toContain("release-notes");
    expect(system).toContain("Triage an issue");
  });
});
