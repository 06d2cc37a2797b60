// /compress and /context in the chat, as a user reads them: a short chat is "nothing to compress
// yet" (no context-window warning, said once), a real compression is one line, and /context does
// not call an estimate a measurement.
import { writeFileSync } from "node:fs";
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

const chat = () =>
  ptys.start([...routeArgs(fake.baseUrl, "chat_completions")], { IRIS_HOME: home.home }, work);
/** The chat waits for input: its last row is the bare prompt. */
const idle = (t: PtySession) => renderScreen(t.raw(), 100).at(-1)?.trim() === "›";
const count = (text: string, part: string) => text.split(part).length - 1;

describe("/compress", () => {
  it("on a short chat says there is nothing to compress yet, once", async () => {
    fake.enqueue({ text: "hello there" });
    const t = chat();
    await t.waitFor("› ");
    t.type("hi\r");
    await t.waitFor(/hello there[\s\S]*› /);
    t.type("/compress\r");
    await t.waitFor(() => idle(t) && t.screen().includes("nothing to compress yet"));
    expect(count(t.screen(), "nothing to compress yet")).toBe(1);
    expect(t.screen()).not.toContain("context window");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);

  it("a real compression prints one line, and /context then shows no measurement it did not make", async () => {
    writeFileSync(join(home.home, "config.yaml"), "compression:\n  protect_last_n: 2\n");
    const long = "word ".repeat(400);
    for (let i = 0; i < 4; i++) fake.enqueue({ text: `answer ${i} ${long}` });
    const t = chat();
    await t.waitFor("› ");
    for (let i = 0; i < 4; i++) {
      t.type(`question ${i}\r`);
      await t.waitFor(new RegExp(`answer ${i}[\\s\\S]*› `));
    }
    fake.enqueue({ text: "the summary of it all" });
    const before = t.screen().length;
    t.type("/compress\r");
    await t.waitFor(/compressed \(phase \d\)[\s\S]*› /);
    const shown = t.screen().slice(before);
    expect(count(shown, "compressed")).toBe(1);
    t.type("/context\r");
    await t.waitFor(() => idle(t) && /last prompt/.test(t.screen().slice(before)));
    const report = t.screen().slice(before);
    expect(report).not.toContain("measured by the API");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);
});
