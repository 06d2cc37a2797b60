// Issue 13, item 3, end to end in a terminal: a timed-out approval says so and lets go of the
// input (the next line, `/new`, is a command again); "session" approvals die with the session;
// "always" says what it allows and writes config.yaml keeping its comments and order.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { routeArgs, tempHome } from "./helpers.js";
import { startPty } from "./pty.js";

let fake: FakeLlm;
let home: ReturnType<typeof tempHome>;
beforeEach(async () => {
  fake = await startFakeLlm();
  home = tempHome();
});
afterEach(async () => {
  await fake.close();
  home.cleanup();
});

const rmBuild = { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf build" } }] };

describe("approvals in the interactive CLI", () => {
  it("a timed-out question says so and does not swallow the next line", async () => {
    writeFileSync(join(home.home, "config.yaml"), "approvals:\n  timeout_seconds: 1\n");
    const work = join(home.home, "work");
    mkdirSync(join(work, "build"), { recursive: true });
    fake.enqueue(rmBuild, { text: "gave up" });
    const t = startPty(routeArgs(fake.baseUrl, "chat_completions"), { IRIS_HOME: home.home }, work);
    await t.waitFor("› ");
    t.type("clean up\r");
    await t.waitFor("Allow (within 1 s)?");
    await t.waitFor("no answer in time: the command was denied and not run");
    await t.waitFor(/gave up[\s\S]*› /);
    t.type("/new\r");
    await t.waitFor("new session");
    expect(fake.requests).toHaveLength(2);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);

  it("session approvals end with the session; always states what it allows and keeps config comments", async () => {
    const config =
      "# my settings\nmodel:\n  name: fake-model # pinned\napprovals:\n  # keep asking about pushes\n  allow:\n    - docker_stop # containers\n";
    writeFileSync(join(home.home, "config.yaml"), config);
    const work = join(home.home, "work");
    mkdirSync(work, { recursive: true });
    fake.enqueue(rmBuild, { text: "first done" }, rmBuild, { text: "second done" }, rmBuild, {
      text: "third done",
    });
    const t = startPty(routeArgs(fake.baseUrl, "chat_completions"), { IRIS_HOME: home.home }, work);
    await t.waitFor("› ");
    t.type("one\r");
    await t.waitFor("recursive_delete: deletes a folder and everything in it (rm -r)");
    t.type("s\r");
    await t.waitFor(/first done[\s\S]*› /);
    t.type("two\r");
    await t.waitFor(/second done[\s\S]*› /);
    // Remembered for the session: the second rm was not asked about.
    expect(t.screen().split("wants to run").length - 1).toBe(1);
    t.type("/new\r");
    await t.waitFor("new session");
    t.type("three\r");
    await t.waitFor(/wants to run[\s\S]*wants to run/);
    t.type("a\r");
    await t.waitFor(/third done[\s\S]*› /);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
    const after = readFileSync(join(home.home, "config.yaml"), "utf8");
    expect(after).toBe(`${config}    - recursive_delete\n`);
  }, 60_000);

  it("iris -p in a terminal asks on it: the answers reach their calls; an unanswered one times out", async () => {
    writeFileSync(join(home.home, "config.yaml"), "approvals:\n  timeout_seconds: 2\n");
    const work = join(home.home, "work");
    mkdirSync(join(work, "build"), { recursive: true });
    mkdirSync(join(work, "keep"), { recursive: true });
    fake.enqueue(
      {
        toolCalls: [
          { name: "clarify", arguments: { question: "Which folder?", choices: ["build", "keep"] } },
        ],
      },
      rmBuild,
      { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf keep" } }] },
      { text: "cleaned" },
    );
    const t = startPty(
      ["-p", "clean up", ...routeArgs(fake.baseUrl, "chat_completions")],
      { IRIS_HOME: home.home },
      work,
    );
    await t.waitFor("? Which folder?");
    t.type("1\r");
    await t.waitFor(/rm -rf build[\s\S]*Allow \(within 2 s\)\?/);
    t.type("o\r");
    await t.waitFor(/rm -rf keep[\s\S]*Allow \(within 2 s\)\?/);
    await t.waitFor("no answer in time: the command was denied and not run");
    await t.waitFor("cleaned");
    expect(await t.exited).toBe(0);
    // The clarify call's result is the picked choice.
    const body = fake.requests[1]?.body as { messages: { role: string; content?: unknown }[] } | undefined;
    expect(JSON.stringify(body?.messages.at(-1))).toMatch(/"role":"tool".*build/);
    expect(existsSync(join(work, "build"))).toBe(false);
    expect(existsSync(join(work, "keep"))).toBe(true);
  }, 60_000);
});
