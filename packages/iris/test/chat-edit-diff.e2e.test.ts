// What tools did, in the chat: a coloured diff under every write_file and patch call, and the
// first lines of other calls' output. A real pseudo-terminal against the fake LLM server.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, type TempHome } from "./helpers.js";
import { trackedPtys } from "./pty.js";
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

describe("tool feedback in the chat", () => {
  it("shows a new file, a patch and a command's output under their lines", async () => {
    writeFileSync(join(home.home, "config.yaml"), "approvals:\n  mode: off\n");
    fake.enqueue(
      { toolCalls: [{ name: "write_file", arguments: { path: "notes.txt", content: "alpha\nbeta\n" } }] },
      {
        toolCalls: [
          { name: "patch", arguments: { path: "notes.txt", old_string: "beta", new_string: "gamma" } },
        ],
      },
      {
        toolCalls: [
          { name: "terminal", arguments: { command: "printf 'one\\ntwo\\nthree\\nfour\\nfive\\n'" } },
        ],
      },
      { text: "all done" },
    );
    const t = ptys.start([...routeArgs(fake.baseUrl, "chat_completions")], { IRIS_HOME: home.home }, work);
    await t.waitFor("› ");
    t.type("edit it\r");
    await t.waitFor(/all done[\s\S]*› $/);
    // As the terminal shows it (rendered): nothing drawn over the diff or the preview.
    const screen = `${renderScreen(t.raw(), 100).join("\n")}\n`;
    expect(screen).toMatch(
      /✓ write_file[^\n]*\n\s+new file notes\.txt {2}\+2 -0\n\s+@@ -0,0 \+1,2 @@\n\s+\+alpha\n\s+\+beta\n/,
    );
    expect(screen).toMatch(
      /✓ patch[^\n]*\n\s+notes\.txt {2}\+1 -1\n\s+@@ -1,2 \+1,2 @@\n\s+ alpha\n\s+-beta\n\s+\+gamma\n/,
    );
    expect(screen).toMatch(/✓ terminal[^\n]*\n\s+│ one\n\s+│ two\n\s+│ three\n\s+│ … 2 more lines\n/);
    // Coloured: additions green, removals red.
    expect(t.raw()).toContain("\u001b[32m+gamma\u001b[39m");
    expect(t.raw()).toContain("\u001b[31m-beta\u001b[39m");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);
});
