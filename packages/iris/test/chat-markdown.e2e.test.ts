// The answer as Markdown in the chat: a fenced code block in its language's syntax colours
// (highlight.js) and a table drawn again with its columns aligned once it has ended. A real
// pseudo-terminal against the fake LLM server; the screen read through the vt-screen emulator.
import type { FakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, type TempHome } from "./helpers.js";
import { trackedPtys } from "./pty.js";
import { renderScreen } from "./vt-screen.js";

let fake: FakeLlm;
let home: TempHome;
let close: () => Promise<void>;
const ptys = trackedPtys();
beforeEach(async () => {
  ({ fake, home, close } = await fakeHome());
});
afterEach(async () => {
  ptys.killOpen();
  await close();
});

const ANSWER = [
  "Here:",
  "```ts",
  "const total = 42; // sum",
  "```",
  "| Name | Size |",
  "|:--|--:|",
  "| a | 1 |",
  "| longer name | 22 |",
  "after the table",
].join("\n");

describe("Markdown in the chat", () => {
  it("colours code by its language and aligns a table", async () => {
    fake.enqueue({ text: ANSWER });
    const t = ptys.start([...routeArgs(fake.baseUrl, "chat_completions")], { IRIS_HOME: home.home });
    await t.waitFor("› ");
    t.type("show me\r");
    await t.waitFor(/after the table[\s\S]*› $/);
    const rows = renderScreen(t.raw(), 100).map((r) => r.trimEnd());
    const top = rows.findIndex((r) => r.startsWith("┌"));
    expect(rows.slice(top, top + 6)).toEqual([
      "┌─────────────┬──────┐",
      "│ Name        │ Size │",
      "├─────────────┼──────┤",
      "│ a           │    1 │",
      "│ longer name │   22 │",
      "└─────────────┴──────┘",
    ]);
    expect(rows[top + 6]).toBe("after the table");
    // No raw row is left on screen.
    expect(rows.filter((r) => r.startsWith("|"))).toEqual([]);
    // highlight.js's scopes: the keyword magenta, the number yellow, the comment grey.
    const raw = t.raw();
    expect(raw).toContain(
      "\u001b[35mconst\u001b[0m total = \u001b[33m42\u001b[0m; \u001b[90m// sum\u001b[0m",
    );
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);
});
