// Skills in sessions (SPEC K4, S2): without skills no skills tools are offered; a skill added
// while a session runs shows in the next session's prompt index and menu, not the running one.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IrisProcess } from "../src/app/process.js";
import { loadProfile } from "../src/config/index.js";

let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess | undefined;
beforeEach(async () => {
  fake = await startFakeLlm();
  fake.setHandler(() => ({ text: "ok" }));
  dir = tempDir("iris-skills-e2e");
});
afterEach(async () => {
  await iris?.close();
  iris = undefined;
  await fake.close();
  dir.cleanup();
});

type Body = { messages: { role: string; content?: unknown }[]; tools?: { function: { name: string } }[] };

describe("skills in sessions", () => {
  it("offers skill tools and the index only once there are skills, from the next session on", async () => {
    const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
    if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
    iris = await IrisProcess.open({ profile, platform: "cli", env: {} });
    const work = join(dir.path, "work");
    mkdirSync(work);
    const session = iris.openSession({
      source: "cli",
      cwd: work,
      route: { provider: "custom", model: "fake-model", baseUrl: fake.baseUrl, apiMode: "chat_completions" },
    });
    session.startSession();
    await session.send("one");
    const skillDir = join(profile.home.paths.skills, "deploy");
    mkdirSync(skillDir, { recursive: true });
    writeFileSync(
      join(skillDir, "SKILL.md"),
      "---\nname: deploy\ndescription: Deploy the site\n---\nRun make deploy.\n",
    );
    await session.send("two"); // same session: unchanged
    session.startSession();
    await session.send("three"); // the next session
    const bodies = fake.requests.map((r) => r.body as Body);
    const names = (b: Body | undefined) => (b?.tools ?? []).map((t) => t.function.name);
    const system = (b: Body | undefined) => JSON.stringify(b?.messages[0]);
    expect(names(bodies[0])).not.toContain("skill_view");
    expect(names(bodies[1])).not.toContain("skill_view");
    expect(system(bodies[1])).not.toContain("Deploy the site");
    expect(names(bodies[2])).toEqual(expect.arrayContaining(["skill_manage", "skill_view", "skills_list"]));
    expect(system(bodies[2])).toContain("- deploy: Deploy the site");
  });
});
