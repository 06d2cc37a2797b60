// Typed text is never mixed into the streamed answer (issue 15): while a turn writes, the line
// being typed stays on its own row below the output, and is still there, whole, when the turn
// ends. Checked on the rendered screen of a real pseudo-terminal.
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

describe("the line being typed during a turn", () => {
  it("stays below the answer streamed after it and is kept for the next message", async () => {
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let calls = 0;
    fake.setHandler(async () => {
      if (calls++ > 0) return { text: "second answer" };
      await gate;
      return { text: "first line of the answer\nsecond line of the answer" };
    });
    const t = chat();
    await t.waitFor("› ");
    t.type("question\r");
    await t.waitFor(() => fake.requests.length === 1);
    t.type("draft");
    await t.waitFor(() => rows(t).some((row) => row === "› draft"));
    release();
    await t.waitFor(() => rows(t).includes("second line of the answer") && rows(t).at(-1) === "› draft");
    const screen = rows(t);
    expect(screen).toContain("first line of the answer");
    expect(screen.filter((row) => row.includes("draft"))).toEqual(["› draft"]);
    t.type(" more\r");
    await t.waitFor("second answer");
    expect(usersOf(1).at(-1)).toBe("draft more");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  });

  it("goes on its own row under a half-streamed line, and survives an interruption", async () => {
    fake.enqueue({ fault: "stall", reply: { text: "partial answer that stops here" }, afterEvents: 3 });
    fake.enqueue({ text: "ok" });
    const t = chat();
    await t.waitFor("› ");
    t.type("question\r");
    await t.waitFor("partial");
    t.type("hello");
    await t.waitFor(() => rows(t).at(-1) === "› hello");
    const during = rows(t);
    const answerRow = during.findIndex((row) => row.startsWith("partial"));
    expect(answerRow).toBe(during.length - 2);
    expect(during[answerRow]).not.toContain("hello");
    t.type(ESC);
    await t.waitFor("(interrupted");
    await t.waitFor(() => rows(t).at(-1) === "› hello");
    expect(rows(t).filter((row) => row.includes("hello"))).toEqual(["› hello"]);
    t.type("\r");
    await t.waitFor(() => fake.requests.length === 2);
    expect(usersOf(1).at(-1)).toBe("hello");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  });
});
