// The everyday chat commands (/retry, /rename, /copy, /export, /clear, /init) and custom slash
// commands from Markdown files, in a real pseudo-terminal against the fake LLM server.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, runIris, type TempHome } from "./helpers.js";
import { type PtySession, trackedPtys } from "./pty.js";

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

const chat = (cwd = work) =>
  ptys.start([...routeArgs(fake.baseUrl, "chat_completions")], { IRIS_HOME: home.home }, cwd);
type Msg = { role: string; content: unknown };
const messagesOf = (i: number) => (fake.requests[i]!.body as { messages: Msg[] }).messages;
const said = (i: number, role: string) =>
  messagesOf(i)
    .filter((m) => m.role === role)
    .map((m) => String(m.content));
/** Waits for the prompt to come back after `text` shows. */
const answered = (t: PtySession, text: string) => t.waitFor(new RegExp(`${text}[\\s\\S]*› $`));

describe("everyday chat commands", () => {
  it("/retry asks the last message again on a new branch; /rename, /copy and /export work on the session", async () => {
    fake.enqueue({ text: "answer one" }, { text: "answer two" }, { text: "answer two again" });
    const t = chat();
    await t.waitFor("› ");
    t.type("first question\r");
    await answered(t, "answer one");
    t.type("second question\r");
    await answered(t, "answer two");
    t.type("/retry\r");
    await t.waitFor('retrying "second question"');
    await answered(t, "answer two again");
    expect(said(2, "user")).toEqual(["first question", "second question"]);
    expect(said(2, "assistant")).toEqual(["answer one"]);

    t.type("/rename Release notes\r");
    await t.waitFor('is now "Release notes"');
    t.type("/copy\r");
    await t.waitFor("copied the last answer (16 characters)");
    expect(t.raw()).toContain(`\u001b]52;c;${Buffer.from("answer two again").toString("base64")}\u0007`);
    t.type("/export talk.md\r");
    await t.waitFor(`wrote ${join(work, "talk.md")}`);
    const md = readFileSync(join(work, "talk.md"), "utf8");
    expect(md).toMatch(/^# Release notes\n/);
    expect(md).toMatch(/first question[\s\S]*answer one[\s\S]*second question[\s\S]*answer two again/);
    expect(md).not.toMatch(/answer two\n/);
    t.type("/export talk.txt\r");
    await t.waitFor("/export writes .md, .json or .jsonl");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
    const list = await runIris(["sessions", "list"], { env: { IRIS_HOME: home.home } });
    expect(list.stdout).toContain("Release notes");
  }, 60_000);

  it("/clear starts a new session whose first request carries none of the old conversation", async () => {
    fake.enqueue({ text: "old answer" }, { text: "fresh answer" });
    const t = chat();
    await t.waitFor("› ");
    t.type("old question\r");
    await answered(t, "old answer");
    t.type("/clear\r");
    await t.waitFor("(the earlier one is kept: /resume)");
    expect(t.raw()).toContain("\u001b[2J");
    t.type("new question\r");
    await answered(t, "fresh answer");
    expect(said(1, "user")).toEqual(["new question"]);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);

  it("/init has the agent write AGENTS.md", async () => {
    writeFileSync(join(home.home, "config.yaml"), "approvals:\n  mode: off\n");
    fake.enqueue(
      {
        toolCalls: [
          { name: "write_file", arguments: { path: "AGENTS.md", content: "# Agents\nrun npm test\n" } },
        ],
      },
      { text: "wrote AGENTS.md" },
    );
    const t = chat();
    await t.waitFor("› ");
    t.type("/init\r");
    await answered(t, "wrote AGENTS.md");
    expect(said(0, "user")[0]).toMatch(/^Write an AGENTS\.md for this project/);
    expect(readFileSync(join(work, "AGENTS.md"), "utf8")).toBe("# Agents\nrun npm test\n");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);
});

describe("custom slash commands", () => {
  it("come from .iris/commands of the project (found from a sub-folder) and of the profile, with $ARGUMENTS", async () => {
    mkdirSync(join(work, ".git"));
    mkdirSync(join(work, ".iris", "commands"), { recursive: true });
    writeFileSync(
      join(work, ".iris", "commands", "review.md"),
      "---\ndescription: review a file for bugs\n---\nReview $ARGUMENTS for bugs and say which lines.\n",
    );
    mkdirSync(join(home.home, "commands"));
    writeFileSync(join(home.home, "commands", "standup.md"), "Summarise what changed today.\n");
    // The project's file of a name wins over the profile's.
    writeFileSync(join(home.home, "commands", "review.md"), "the profile's review\n");
    const sub = join(work, "src", "deep");
    mkdirSync(sub, { recursive: true });
    fake.enqueue({ text: "line 3 is wrong" }, { text: "nothing changed" });
    const t = chat(sub);
    await t.waitFor("› ");
    t.type("/help\r");
    await t.waitFor(/\/review \[ARGS\] +review a file for bugs/);
    await t.waitFor(/\/standup \[ARGS\] +Summarise what changed today\./);
    t.type("/review src/a.ts\r");
    await answered(t, "line 3 is wrong");
    expect(said(0, "user")).toEqual(["Review src/a.ts for bugs and say which lines."]);
    t.type("/standup for the team\r");
    await answered(t, "nothing changed");
    expect(said(1, "user").at(-1)).toBe("Summarise what changed today.\n\nfor the team");
    t.type("/nosuch\r");
    await t.waitFor("unknown command /nosuch");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
    expect(existsSync(join(sub, ".iris"))).toBe(false);
  }, 60_000);
});
