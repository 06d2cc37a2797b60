// Finding a session again: `--resume` by the first characters of the short id shown everywhere,
// `iris -r` browsing this folder's sessions (arrows, a filter, empty untitled ones left out), a
// resumed session continuing on its own model, and `-c` taking up this folder's newest session.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, runIris, type TempHome } from "./helpers.js";
import { type PtySession, trackedPtys } from "./pty.js";
import { renderScreen } from "./vt-screen.js";

let fake: FakeLlm;
let home: TempHome;
let work: string;
let close: () => Promise<void>;
const ptys = trackedPtys();
beforeEach(async () => {
  ({ fake, home, work, close } = await fakeHome(true));
});
afterEach(async () => {
  ptys.killOpen();
  await close();
});

const route = () => routeArgs(fake.baseUrl, "chat_completions");
const env = () => ({ IRIS_HOME: home.home });
const modelOf = (i: number) => (fake.requests[i]!.body as { model: string }).model;

/** Runs one `iris -p` turn in `cwd` and returns the new session's short id. */
async function session(prompt: string, cwd: string, extra: string[] = []): Promise<string> {
  fake.enqueue({ text: `answer to ${prompt}` });
  const r = await runIris(["-p", prompt, "--output-format", "json", ...route(), ...extra], {
    env: env(),
    cwd,
  });
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { session_id: string }).session_id.slice(-8);
}

describe("resuming", () => {
  it("--resume takes a unique prefix of the short id, and the session keeps its model", async () => {
    const short = await session("first", work, ["--model", "model-of-the-session"]);
    // No --model this time: the config names another model, the session's own is used.
    writeFileSync(join(home.home, "config.yaml"), "model:\n  name: config-model\n");
    const noModel = route().filter((a, i, all) => a !== "--model" && all[i - 1] !== "--model");
    fake.enqueue({ text: "again answered" });
    const r = await runIris(["-p", "again", "--resume", short.slice(0, 4), ...noModel], {
      env: env(),
      cwd: work,
    });
    expect(r.stdout).toBe("again answered\n");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(modelOf(1)).toBe("model-of-the-session");
    const users = (fake.requests[1]!.body as { messages: { role: string; content: string }[] }).messages
      .filter((m) => m.role === "user")
      .map((m) => m.content);
    expect(users).toEqual(["first", "again"]);
  });

  it("iris -r lists this folder's sessions, filters as the user types, and resumes the one picked", async () => {
    const elsewhere = join(home.home, "elsewhere");
    mkdirSync(elsewhere);
    await session("alpha task", work);
    await session("beta task", work);
    await session("gamma elsewhere", elsewhere);
    // A chat opened and left at once: no message, no title.
    const empty = ptys.start(route(), env(), work);
    await empty.waitFor("› ");
    empty.type("/exit\r");
    await empty.exited;

    const t = ptys.start([...route(), "-r"], env(), work);
    await t.waitFor("resume a session (this folder");
    await t.waitFor("alpha task");
    const list = t.screen();
    expect(list).toContain("beta task");
    expect(list).not.toContain("gamma elsewhere");
    expect(list).not.toContain("(untitled)");
    t.type("bet");
    await t.waitFor("filter: bet");
    t.type("\r");
    await t.waitFor("answer to beta task");
    await t.waitFor(/answer to beta task[\s\S]*› /);
    fake.enqueue({ text: "resumed fine" });
    t.type("and then?\r");
    await t.waitFor("resumed fine");
    const users = (fake.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages
      .filter((m) => m.role === "user")
      .map((m) => m.content);
    expect(users).toEqual(["beta task", "and then?"]);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);

  it("/resume in the chat browses this folder's sessions with the arrow keys, Tab shows every folder's", async () => {
    const elsewhere = join(home.home, "elsewhere");
    mkdirSync(elsewhere);
    await session("alpha task", work);
    await session("beta task", work);
    await session("gamma elsewhere", elsewhere);
    const t = ptys.start(route(), env(), work);
    await t.waitFor("› ");
    t.type("/resume\r");
    await t.waitFor("resume a session (this folder");
    await t.waitFor("alpha task");
    // Newest first, the first one marked; nothing of the other folder.
    const marked = () => rows(t).filter((r) => /^[› ] \w{8} {2}/.test(r));
    expect(marked().map((r) => r.slice(0, 2) + r.replace(/^.*\d\d:\d\d {2}/, ""))).toEqual([
      "› beta task",
      "  alpha task",
    ]);
    t.type(`${ESC}[B`); // ↓
    await t.waitFor(() => marked().some((r) => r.startsWith("›") && r.endsWith("alpha task")));
    expect(marked()).toHaveLength(2);
    t.type("\r");
    await t.waitFor(/resumed \w{8} · alpha task/);
    fake.enqueue({ text: "alpha again" });
    t.type("go on\r");
    await t.waitFor(/alpha again[\s\S]*› $/);
    const users = (fake.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages
      .filter((m) => m.role === "user")
      .map((m) => m.content);
    expect(users).toEqual(["alpha task", "go on"]);

    t.type("/resume\r");
    await t.waitFor(() => t.screen().split("resume a session (this folder").length === 3);
    t.type("gam");
    await t.waitFor("(none here: Tab shows every folder)");
    t.type("\t");
    await t.waitFor(() =>
      marked().some((r) => r.startsWith("›") && r.endsWith(`gamma elsewhere  [${elsewhere}]`)),
    );
    t.type("\r");
    await t.waitFor(/resumed \w{8} · gamma elsewhere/);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);

  it("-c continues this folder's newest session, not another folder's; a new folder starts afresh", async () => {
    const other = join(home.home, "other-project");
    const fresh = join(home.home, "new-project");
    mkdirSync(other);
    mkdirSync(fresh);
    await session("here first", work);
    await session("elsewhere later", other);
    fake.enqueue({ text: "continued here" });
    const here = await runIris(["-p", "and here?", "-c", ...route()], { env: env(), cwd: work });
    expect(here.stderr).toBe("");
    expect(here.stdout).toBe("continued here\n");
    const users = (fake.requests[2]!.body as { messages: { role: string; content: string }[] }).messages
      .filter((m) => m.role === "user")
      .map((m) => m.content);
    expect(users).toEqual(["here first", "and here?"]);
    fake.enqueue({ text: "new one" });
    const none = await runIris(["-p", "hello", "-c", ...route()], { env: env(), cwd: fresh });
    expect(none.code).toBe(0);
    expect(none.stderr).toContain("no earlier session in this folder");
    const sent = (fake.requests[3]!.body as { messages: { role: string }[] }).messages;
    expect(sent.filter((m) => m.role === "user")).toHaveLength(1);
  });
});

const ESC = "\u001b";
const rows = (t: PtySession) => renderScreen(t.raw(), 100);
