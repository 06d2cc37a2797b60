import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, runIris, type TempHome } from "./helpers.js";
import { startPty } from "./pty.js";

let fake: FakeLlm;
let home: TempHome;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ fake, home, close } = await fakeHome());
});
afterEach(() => close());

describe("interactive iris in a terminal", () => {
  it("streams answers, shows tool progress, runs slash commands and exits on /exit", async () => {
    fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: "echo 안녕" } }] },
      { text: "한국어 답변입니다" },
    );
    const t = startPty(routeArgs(fake.baseUrl, "chat_completions"), { IRIS_HOME: home.home });
    await t.waitFor("› ");
    t.type("인사해 줘\r");
    await t.waitFor("한국어 답변입니다");
    expect(t.screen()).toMatch(/✓ terminal/);
    await t.waitFor(/› [\s\S]*› /);
    t.type("/usage\r");
    await t.waitFor(/1 API calls|2 API calls/);
    t.type("/help\r");
    await t.waitFor("/resume [ID]");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
    expect(fake.violations).toEqual([]);
    const list = await runIris(["sessions", "search", "답변"], { env: { IRIS_HOME: home.home } });
    expect(list.stdout).toMatch(/한국어 \[?답변\]?입니다/);
  });

  it("asks before a dangerous command and for clarification, and passes the answers on", async () => {
    const work = join(home.home, "work");
    mkdirSync(join(work, "node_modules", "pkg"), { recursive: true });
    fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf node_modules/" } }] },
      {
        toolCalls: [{ name: "clarify", arguments: { question: "Which colour?", choices: ["red", "blue"] } }],
      },
      { text: "ok, blue it is" },
    );
    const t = startPty(routeArgs(fake.baseUrl, "responses"), { IRIS_HOME: home.home }, work);
    await t.waitFor("› ");
    t.type("clean and ask\r");
    await t.waitFor("[o]nce, [s]ession, [a]lways, [d]eny");
    t.type("d\r");
    await t.waitFor("Which colour?");
    t.type("2\r");
    await t.waitFor("ok, blue it is");
    expect(existsSync(join(work, "node_modules", "pkg"))).toBe(true);
    const bodies = fake.requests.map((r) => r.rawBody.toString("utf8"));
    expect(bodies[1]).toMatch(/not run/);
    expect(bodies[2]).toContain("blue");
    expect(fake.violations).toEqual([]);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  });

  it("Ctrl-C interrupts a stalled turn, stores nothing partial, and a second Ctrl-C exits with 130", async () => {
    fake.enqueue({ fault: "stall" });
    const t = startPty(routeArgs(fake.baseUrl, "anthropic_messages"), { IRIS_HOME: home.home });
    await t.waitFor("› ");
    t.type("wait for it\r");
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    t.type("\u0003");
    await t.waitFor("interrupted");
    await t.waitFor(/\(interrupted\)[\s\S]*› /);
    expect(t.screen()).not.toContain("user_cancelled"); // the code is for scripts, not people
    const shown = await runIris(["sessions", "list"], { env: { IRIS_HOME: home.home } });
    const id = shown.stdout.split(/\s+/)[0]!;
    const session = await runIris(["sessions", "show", id], { env: { IRIS_HOME: home.home } });
    expect(session.stdout).toContain("› wait for it");
    expect(
      session.stdout.split("\n").filter((l) => l.trim() && !l.startsWith("session") && !l.startsWith("›")),
    ).toEqual([]);
    t.type("\u0003");
    t.type("\u0003");
    expect(await t.exited).toBe(130);
  });

  it("/edit N replaces an earlier message on a new branch: the model never sees the old one", async () => {
    fake.enqueue({ text: "answer one" }, { text: "answer two" }, { text: "answer two, again" });
    const t = startPty(routeArgs(fake.baseUrl, "chat_completions"), { IRIS_HOME: home.home });
    await t.waitFor("› ");
    t.type("first ask\r");
    await t.waitFor("answer one");
    await t.waitFor(/› [\s\S]*› /);
    t.type("second ask\r");
    await t.waitFor("answer two");
    t.type("/branch\r");
    await t.waitFor("2  second ask");
    t.type("/edit 2 second ask, said better\r");
    await t.waitFor("answer two, again");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
    const last = fake.requests.at(-1)?.rawBody.toString("utf8") ?? "";
    expect(last).toContain("second ask, said better");
    expect(last).not.toContain('"second ask"');
    expect(last).not.toContain("answer two");
    expect(fake.violations).toEqual([]);
  });
});
