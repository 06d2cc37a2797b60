// Skills in sessions (SPEC K4, S2): without skills only skill_manage is offered (so the agent can
// write the first one); a skill added while a session runs shows in the next session's prompt
// index and menu, not the running one; a loaded profile skill's allowed_tools run without asking.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IrisProcess } from "../src/app/process.js";
import { loadProfile } from "../src/config/index.js";
import { startSession } from "./process.js";

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
    const session = await startSession(iris, fake, join(dir.path, "work"), "cli");
    await session.send("one");
    const skillDir = join(profile.home.paths.skills, "deploy");
    mkdirSync(skillDir, { recursive: true });
    writeFileSync(
      join(skillDir, "SKILL.md"),
      "---\nname: deploy\ndescription: Deploy the site\n---\nRun make deploy.\n",
    );
    await session.send("two"); // same session: unchanged
    await session.startSession();
    await session.send("three"); // the next session
    const bodies = fake.requests.map((r) => r.body as Body);
    const names = (b: Body | undefined) => (b?.tools ?? []).map((t) => t.function.name);
    const system = (b: Body | undefined) => JSON.stringify(b?.messages[0]);
    expect(names(bodies[0])).not.toContain("skill_view");
    expect(names(bodies[0])).toContain("skill_manage");
    expect(names(bodies[1])).not.toContain("skill_view");
    expect(system(bodies[1])).not.toContain("Deploy the site");
    expect(names(bodies[2])).toEqual(expect.arrayContaining(["skill_manage", "skill_view", "skills_list"]));
    expect(system(bodies[2])).toContain("- deploy: Deploy the site");
  });

  it("the agent writes the first skill (asked); once loaded, its allowed_tools run without asking", async () => {
    const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
    if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
    iris = await IrisProcess.open({ profile, platform: "cli", env: {} });
    const work = join(dir.path, "work");
    mkdirSync(join(work, "build"), { recursive: true });
    mkdirSync(join(work, "dist"), { recursive: true });
    const session = iris.openSession({
      source: "cli",
      cwd: work,
      route: { provider: "custom", model: "fake-model", baseUrl: fake.baseUrl, apiMode: "chat_completions" },
    });
    const asked: string[] = [];
    session.subscribe((e) => {
      if (e.name !== "approval_requested") return;
      asked.push(e.payload.request.patternKey);
      session.answer(e.payload.requestId, "once");
    });
    const content =
      "---\nname: tidy\ndescription: Remove build output\nallowed_tools: [terminal]\n---\nrm -r build\n";
    fake.enqueue(
      { toolCalls: [{ name: "skill_manage", arguments: { action: "create", name: "tidy", content } }] },
      { text: "saved" },
    );
    await session.startSession();
    expect((await session.send("remember how to tidy")).text).toBe("saved");
    expect(asked).toEqual(["skill_manage:allowed_tools"]);
    expect(readFileSync(join(profile.home.paths.skills, "tidy", "SKILL.md"), "utf8")).toContain("name: tidy");

    // The next session: the model loads the skill, then runs what it allows: nobody is asked.
    fake.enqueue(
      { toolCalls: [{ name: "skill_view", arguments: { name: "tidy" } }] },
      { toolCalls: [{ name: "terminal", arguments: { command: "rm -r build" } }] },
      { text: "tidied" },
    );
    await session.startSession();
    expect((await session.send("tidy up")).text).toBe("tidied");
    expect(asked).toHaveLength(1);
    expect(existsSync(join(work, "build"))).toBe(false);

    // A session that has not loaded the skill asks as usual.
    fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: "rm -r dist" } }] },
      { text: "done" },
    );
    await session.startSession();
    await session.send("remove dist");
    expect(asked).toHaveLength(2);
    expect(existsSync(join(work, "dist"))).toBe(false);
  });
});
