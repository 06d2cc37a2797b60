// The interactive screen and its input, through a real pseudo-terminal: pastes, queued lines,
// history, completion, Esc, Markdown and colours, failed tools, reasoning, @path, !cmd, resume.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm, Step } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, runIris, type TempHome } from "./helpers.js";
import { trackedPtys } from "./pty.js";

let fake: FakeLlm;
let home: TempHome;
let work: string;
let close: () => Promise<void>;
/** Terminals this test opened: a failed test must not leave its chat running. */
const { start: startPty, killOpen } = trackedPtys();
beforeEach(async () => {
  ({ fake, home, work, close } = await fakeHome(true));
});
afterEach(async () => {
  killOpen();
  await close();
});

const ESC = "\u001b";
const route = () => routeArgs(fake.baseUrl, "chat_completions");
const chat = (extraEnv: Record<string, string> = {}, args: string[] = []) =>
  startPty([...route(), ...args], { IRIS_HOME: home.home, ...extraEnv }, work);
const bodyOf = (i: number) => fake.requests[i]!.body as { messages: { role: string; content: unknown }[] };
const usersOf = (i: number) =>
  bodyOf(i)
    .messages.filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));

/** The first reply held back until `release()` (the model is "still answering"), then `rest`. */
function gated(first: Step, ...rest: Step[]): { release(): void } {
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let calls = 0;
  fake.setHandler(async () => {
    if (calls++ === 0) {
      await gate;
      return first;
    }
    return rest.shift() ?? { text: "(nothing scripted)" };
  });
  return { release };
}

describe("typing in the chat", () => {
  it("keeps a multi-line paste whole and sends it as one message", async () => {
    fake.enqueue({ text: "got all three" });
    const t = chat();
    await t.waitFor("› ");
    t.type(`${ESC}[200~line one\nline two\nline three${ESC}[201~`);
    t.type("\r");
    await t.waitFor("got all three");
    expect(fake.requests).toHaveLength(1);
    expect(usersOf(0)).toEqual(["line one\nline two\nline three"]);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  });

  it("sends a line typed during a tool-less answer as the next turn", async () => {
    const held = gated({ text: "first answer" }, { text: "second answer" });
    const t = chat();
    await t.waitFor("› ");
    t.type("first question\r");
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    t.type("and one more thing\r");
    await t.waitFor("(queued");
    held.release();
    await t.waitFor("second answer");
    expect(fake.requests).toHaveLength(2);
    expect(usersOf(1)).toEqual(["first question", "and one more thing"]);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  });

  it("sends a line typed while a tool round runs right after that round's results", async () => {
    const held = gated(
      { toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] },
      { text: "done" },
    );
    writeFileSync(join(work, "a.txt"), "alpha\n");
    const t = chat();
    await t.waitFor("› ");
    t.type("read it\r");
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    t.type("also check b\r");
    await t.waitFor("(queued: sent after this round's tool results");
    held.release();
    await t.waitFor("done");
    expect(fake.requests).toHaveLength(2);
    const roles = bodyOf(1).messages.map((m) => m.role);
    expect(roles.slice(-2)).toEqual(["tool", "user"]);
    expect(usersOf(1)).toEqual(["read it", "also check b"]);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  });

  it("recalls the last line with the up arrow and completes slash commands with Tab", async () => {
    fake.enqueue({ text: "one" }, { text: "two" });
    const t = chat();
    await t.waitFor("› ");
    t.type("same again\r");
    await t.waitFor("one");
    await t.waitFor(/one[\s\S]*› /);
    t.type(`${ESC}[A\r`); // one write: an escape sequence split across reads could time out
    await t.waitFor("two");
    expect(usersOf(1)).toEqual(["same again", "same again"]);
    await t.waitFor(/two[\s\S]*› /);
    t.type("/usa\t");
    // Enter only once the completion shows: typed at once, both keys can arrive in one read.
    await t.waitFor("/usage");
    t.type("\r");
    await t.waitFor(/2 API calls/);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  });

  it("Esc interrupts a running turn", async () => {
    fake.enqueue({ fault: "stall" });
    const t = chat();
    await t.waitFor("› ");
    t.type("wait\r");
    await t.waitFor(/thinking \d+\.\ds/);
    t.type(ESC);
    await t.waitFor(/\(interrupted\)[\s\S]*› /);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  });

  it("attaches @path files and runs !commands, whose output goes with the next message", async () => {
    writeFileSync(join(work, "notes.txt"), "the secret word is pineapple\n");
    fake.enqueue({ text: "noted" });
    const t = chat();
    await t.waitFor("› ");
    t.type("!echo shell-said-hello\r");
    await t.waitFor("(exit 0)");
    expect(t.screen()).toContain("shell-said-hello");
    t.type("what does @notes.txt say?\r");
    await t.waitFor("attached notes.txt");
    await t.waitFor("noted");
    const sent = usersOf(0)[0]!;
    expect(sent).toContain("I ran `echo shell-said-hello` myself (exit 0)");
    expect(sent).toContain("what does @notes.txt say?");
    expect(sent).toContain('<file path="notes.txt">\nthe secret word is pineapple');
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  });
});

describe("what the chat shows", () => {
  it("renders Markdown in colour on a terminal, and plain text with NO_COLOR", async () => {
    const answer = "# Plan\n- **first** step\n```\ncode *here*\n```\n";
    fake.enqueue({ text: answer }, { text: answer });
    const coloured = chat();
    await coloured.waitFor("› ");
    coloured.type("plan\r");
    await coloured.waitFor(/code \*here\*[\s\S]*› /);
    expect(coloured.raw()).toContain(`${ESC}[1m${ESC}[4mPlan`);
    expect(coloured.raw()).toContain(`${ESC}[1mfirst${ESC}[22m`);
    expect(coloured.raw()).toContain(`${ESC}[36mcode *here*${ESC}[39m`);
    coloured.type("/exit\r");
    await coloured.exited;

    const plain = chat({ NO_COLOR: "1" });
    await plain.waitFor("› ");
    plain.type("plan\r");
    await plain.waitFor(/code \*here\*[\s\S]*› /);
    expect(plain.raw()).not.toMatch(/\u001b\[(1|3|4|36)m/);
    expect(plain.raw()).toContain("- **first** step");
    plain.type("/exit\r");
    await plain.exited;
  });

  it("shows why a tool call failed, and collapsed reasoning when display.show_reasoning is set", async () => {
    writeFileSync(join(home.home, "config.yaml"), "display:\n  show_reasoning: true\n");
    fake.enqueue(
      {
        reasoning: "The user wants a file. I will read missing.txt first and see.",
        toolCalls: [{ name: "read_file", arguments: { path: "missing.txt" } }],
      },
      { text: "it is not there" },
    );
    const t = chat();
    await t.waitFor("› ");
    t.type("read missing\r");
    await t.waitFor("it is not there");
    expect(t.screen()).toMatch(/✗ read_file[^\n]*\n\s+Error: file not found: .*missing\.txt/);
    expect(t.screen()).toMatch(/▸ reasoning \(\d+ chars, \/reasoning shows it\): The user wants a file/);
    t.type("/reasoning\r");
    await t.waitFor("I will read missing.txt first and see.");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  });
});

describe("sessions in the chat", () => {
  it("picks a session for `iris -r` without an id and replays its last exchange", async () => {
    fake.enqueue({ text: "the capital is Paris" }, { text: "I remember" });
    const first = await runIris(["-p", "What is the capital of France?", ...route()], {
      env: { IRIS_HOME: home.home },
    });
    expect(first.code).toBe(0);
    const t = chat({}, ["-r"]);
    await t.waitFor("resume a session");
    expect(t.screen()).toMatch(/› [0-9a-f]{8} .* What is the capital of France\?/);
    t.type("\r");
    await t.waitFor("the capital is Paris");
    expect(t.screen()).toContain("› What is the capital of France?");
    await t.waitFor(/Paris[\s\S]*› /);
    t.type("do you remember?\r");
    await t.waitFor("I remember");
    expect(usersOf(1)).toEqual(["What is the capital of France?", "do you remember?"]);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  });
});

describe("first run and pickers", () => {
  it("offers setup when no provider is configured, then chats with what was chosen", async () => {
    const t = startPty([], { IRIS_HOME: home.home }, work);
    await t.waitFor("Set one up now? [Y/n]");
    t.type("y\r");
    await t.waitFor("Provider (number or id):");
    t.type("custom\r");
    await t.waitFor("Name for this endpoint");
    t.type("mybox\r");
    await t.waitFor("Base URL");
    t.type(`${fake.baseUrl}\r`);
    await t.waitFor("Wire format");
    t.type("1\r");
    await t.waitFor("Variable for its key");
    t.type("MYBOX_KEY\r");
    await t.waitFor("input hidden");
    t.type("hunter2-secret\r");
    await t.waitFor("Model (number or name");
    t.type("fake-model\r");
    await t.waitFor(/iris · mybox\/fake-model[\s\S]*› /);
    expect(t.screen()).not.toContain("hunter2-secret"); // the key is never echoed
    fake.enqueue({ text: "set up and running" });
    t.type("hello\r");
    await t.waitFor("set up and running");
    expect(fake.requests[0]!.headers.authorization).toBe("Bearer hunter2-secret");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);

  it("/model without a name lists models to pick from and switches", async () => {
    const t = chat({ ANTHROPIC_API_KEY: "sk-ant-test" });
    await t.waitFor("› ");
    t.type("/model\r");
    await t.waitFor("switch to (number or [provider/]name");
    const line = /(\d+) +anthropic\/(\S+)/.exec(t.screen());
    expect(line).not.toBeNull();
    t.type(`${line![1]}\r`);
    await t.waitFor(`now using anthropic/${line![2]}`);
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  });
});
