// What the chat shows around tools and turns, on the rendered screen of a real pseudo-terminal:
// an approval question stays visible (no spinner over it) and its wait is not the tool's time;
// /stop and /status typed during a turn run at once instead of going to the model; a killed
// command is marked ✗; Esc leaves no retry mark (⟲).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, type TempHome } from "./helpers.js";
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

const ESC = "\u001b";
const chat = () =>
  ptys.start([...routeArgs(fake.baseUrl, "chat_completions")], { IRIS_HOME: home.home }, work);
const rows = (t: PtySession) => renderScreen(t.raw(), 100);
const usersOf = (i: number) =>
  (fake.requests[i]!.body as { messages: { role: string; content: unknown }[] }).messages
    .filter((m) => m.role === "user")
    .map((m) => String(m.content));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The first reply held back until `release()`, then `rest` in order. */
function gated(first: object, ...rest: object[]): { release(): void } {
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let calls = 0;
  fake.setHandler(async () => {
    if (calls++ === 0) {
      await gate;
      return first as never;
    }
    return (rest.shift() ?? { text: "(nothing scripted)" }) as never;
  });
  return { release };
}

describe("tool feedback in the chat", () => {
  it("keeps the approval question and the typed answer on screen, and leaves the wait out of the tool's time", async () => {
    mkdirSync(join(work, "build"));
    fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf build" } }] },
      { text: "cleaned" },
    );
    const t = chat();
    await t.waitFor("› ");
    t.type("clean up\r");
    await t.waitFor("[d]eny: ");
    // Long enough for a spinner (100 ms frames) to have drawn over the question many times.
    await pause(2500);
    // The whole question is there, nothing drawn over it.
    const asked = rows(t);
    const at = asked.indexOf("⚠ terminal wants to run:");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(asked[at + 1]).toBe("    rm -rf build");
    expect(asked.at(-1)).toMatch(
      /^ {2}Allow \(within 60 s\)\? \[o\]nce, \[s\]ession, \[a\]lways, \[d\]eny:$/,
    );
    t.type("o");
    await t.waitFor(() => rows(t).at(-1)?.endsWith("[d]eny: o") === true);
    t.type("\r");
    await t.waitFor(/cleaned[\s\S]*› /);
    const done = rows(t).find((r) => r.startsWith("✓ terminal"));
    expect(done).toBeDefined();
    const secs = Number(/\((\d+\.\d)s\)/.exec(done ?? "")?.[1]);
    expect(secs).toBeLessThan(2.5);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);

  it("marks a killed command ✗ with why", async () => {
    writeFileSync(join(home.home, "config.yaml"), "approvals:\n  mode: off\n");
    fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: "kill -9 $$" } }] },
      { text: "it died" },
    );
    const t = chat();
    await t.waitFor("› ");
    t.type("run it\r");
    await t.waitFor(/it died[\s\S]*› /);
    const screen = rows(t);
    expect(screen.some((r) => r.startsWith("✗ terminal") && r.includes("kill -9 $$"))).toBe(true);
    expect(screen).toContain("    killed by SIGKILL");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);
});

describe("commands typed during a turn", () => {
  it("/status answers at once and /stop stops the turn; neither reaches the model", async () => {
    const held = gated({ text: "too late" }, { text: "second answer" });
    const t = chat();
    await t.waitFor("› ");
    t.type("first question\r");
    await t.waitFor(() => fake.requests.length === 1);
    t.type("/status\r");
    // On the rendered screen: the answer is on a row of its own while the turn still runs.
    const shown = (re: RegExp) => () => rows(t).some((r) => re.test(r));
    await t.waitFor(shown(/^session \w{8} · custom\/fake-model · working/));
    t.type("/stop\r");
    await t.waitFor(shown(/\(interrupted/));
    expect(fake.requests).toHaveLength(1);
    held.release();
    await t.waitFor(/› $/);
    t.type("next one\r");
    await t.waitFor("second answer");
    expect(fake.requests).toHaveLength(2);
    expect(usersOf(1).join("\n")).not.toMatch(/\/stop|\/status/);
    expect(t.screen()).not.toContain("queued");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);

  it("Esc during a streamed answer leaves no ⟲", async () => {
    fake.enqueue({ fault: "stall", reply: { text: "partial answer that stops here" }, afterEvents: 3 });
    const t = chat();
    await t.waitFor("› ");
    t.type("question\r");
    await t.waitFor("partial");
    t.type(ESC);
    await t.waitFor("(interrupted");
    await t.waitFor(/› $/);
    expect(t.screen()).not.toContain("⟲");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);
});

describe('iris "PROMPT"', () => {
  it("starts the chat with that message and stays open", async () => {
    fake.enqueue({ text: "first answer" }, { text: "second answer" });
    const t = ptys.start(
      [...routeArgs(fake.baseUrl, "chat_completions"), "what is up today"],
      { IRIS_HOME: home.home },
      work,
    );
    await t.waitFor(/first answer[\s\S]*› /);
    expect(usersOf(0)).toEqual(["what is up today"]);
    t.type("more\r");
    await t.waitFor("second answer");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);
});

describe("the status line and /approvals", () => {
  it("shows model, context, tokens and cost after a turn; /approvals off runs a command unasked", async () => {
    mkdirSync(join(work, "build"));
    fake.enqueue(
      { text: "hello" },
      { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf build" } }] },
      {
        text: "removed",
      },
    );
    const t = chat();
    await t.waitFor("› ");
    t.type("hi\r");
    await t.waitFor(
      /custom\/fake-model · context \S+\/\S+ \(\d+ %, \S+ left\) · \S+ in \S+ out · \$\d+\.\d{4}/,
    );
    t.type("/approvals\r");
    await t.waitFor("approvals: manual");
    t.type("/approvals off\r");
    await t.waitFor("approvals: off for this session");
    t.type("clean\r");
    await t.waitFor(/removed[\s\S]*› /);
    expect(t.screen()).not.toContain("wants to run");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);
});

describe("/model with a provider that does not exist", () => {
  it("is an error that says how to name a model with a slash of the current provider", async () => {
    const t = chat();
    await t.waitFor("› ");
    t.type("/model nosuch/thing\r");
    await t.waitFor("iris: unknown provider 'nosuch'");
    await t.waitFor("/model custom/nosuch/thing");
    t.type("/status\r");
    await t.waitFor(/session \S+ · custom\/fake-model · idle/);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);
});

describe("/tools and /mcp", () => {
  it("list the session's tools and say when no MCP server is configured", async () => {
    const t = chat();
    await t.waitFor("› ");
    t.type("/tools\r");
    await t.waitFor(/\bterminal\b[\s\S]*\bread_file\b|\bread_file\b[\s\S]*\bterminal\b/);
    t.type("/mcp\r");
    await t.waitFor("no MCP servers configured");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);

  it("folds a subagent's calls under its delegate_task line, from the turn view as iris -p does", async () => {
    writeFileSync(join(home.home, "config.yaml"), "toolsets:\n  cli: [file, delegation]\n");
    writeFileSync(join(work, "notes.md"), "the notes\n");
    fake.enqueue(
      { toolCalls: [{ name: "delegate_task", arguments: { goal: "read the notes", toolsets: ["file"] } }] },
      { toolCalls: [{ name: "read_file", arguments: { path: "notes.md" } }] },
      { text: "child done" },
      { text: "parent done" },
    );
    const t = chat();
    await t.waitFor("› ");
    t.type("delegate it\r");
    await t.waitFor(/parent done[\s\S]*› /);
    const screen = rows(t);
    const at = screen.findIndex((r) => r.startsWith("⚙ delegate_task"));
    expect(at, screen.join("\n")).toBeGreaterThanOrEqual(0);
    expect(screen[at + 1]).toBe("  ↳ ✓ read_file: notes.md");
    expect(screen[at + 2]).toMatch(/^✓ delegate_task .*\(\d+\.\ds\)$/);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);
});
