// Plan mode in the chat (/plan): until the user accepts the plan, the model is offered only the
// tools that read, and a write or command it calls anyway does not run; /plan accept brings the
// tools back and has the plan carried out. A real pseudo-terminal against the fake LLM server.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, type TempHome } from "./helpers.js";
import { trackedPtys } from "./pty.js";

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

type Body = { tools?: { function: { name: string } }[]; messages: { role: string; content: unknown }[] };
const toolsOf = (i: number) => ((fake.requests[i]!.body as Body).tools ?? []).map((t) => t.function.name);

describe("plan mode", () => {
  it("offers only reading tools and runs no write or command until the plan is accepted", async () => {
    // Approvals off: only plan mode stands between the model and the files.
    writeFileSync(join(home.home, "config.yaml"), "approvals:\n  mode: off\n");
    writeFileSync(join(work, "app.txt"), "version 1\n");
    fake.enqueue(
      { toolCalls: [{ name: "read_file", arguments: { path: "app.txt" } }] },
      {
        toolCalls: [
          { name: "write_file", arguments: { path: "app.txt", content: "version 2\n" } },
          { name: "terminal", arguments: { command: "touch ran.txt" } },
        ],
      },
      { text: "Plan: 1. change app.txt to version 2" },
      { toolCalls: [{ name: "write_file", arguments: { path: "app.txt", content: "version 2\n" } }] },
      { text: "done" },
    );
    const t = ptys.start([...routeArgs(fake.baseUrl, "chat_completions")], { IRIS_HOME: home.home }, work);
    await t.waitFor("› ");
    t.type("/plan bump the version\r");
    await t.waitFor("plan mode: the agent may read and search");
    await t.waitFor(/Plan: 1\. change app\.txt[\s\S]*› $/);
    for (const i of [0, 1, 2]) {
      expect(toolsOf(i)).toContain("read_file");
      expect(toolsOf(i)).toContain("search_files");
      expect(toolsOf(i)).not.toContain("write_file");
      expect(toolsOf(i)).not.toContain("terminal");
      expect(toolsOf(i)).not.toContain("patch");
    }
    const first = (fake.requests[0]!.body as Body).messages.filter((m) => m.role === "user").at(-1);
    expect(String(first?.content)).toMatch(/^\(Plan mode: [\s\S]*\n\nbump the version$/);
    // The calls the model made anyway did not run.
    expect(readFileSync(join(work, "app.txt"), "utf8")).toBe("version 1\n");
    expect(existsSync(join(work, "ran.txt"))).toBe(false);
    t.type("/status\r");
    await t.waitFor("idle · plan mode");

    t.type("/plan accept\r");
    await t.waitFor("carrying out the plan");
    await t.waitFor(/done[\s\S]*› $/);
    expect(toolsOf(3)).toContain("write_file");
    expect(toolsOf(3)).toContain("terminal");
    const accepted = (fake.requests[3]!.body as Body).messages.filter((m) => m.role === "user").at(-1);
    expect(accepted?.content).toBe("The plan is accepted: carry it out now.");
    expect(readFileSync(join(work, "app.txt"), "utf8")).toBe("version 2\n");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 60_000);
});
