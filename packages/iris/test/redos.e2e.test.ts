// Issue 13, item 6, end to end: the built `iris` gets a catastrophic regex from the model; the
// search answers with an error and the turn goes on (on the main thread it would hang for hours).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { routeArgs, runIris, tempHome } from "./helpers.js";

let fake: FakeLlm;
let home: ReturnType<typeof tempHome>;
beforeEach(async () => {
  fake = await startFakeLlm();
  home = tempHome();
});
afterEach(async () => {
  await fake.close();
  home.cleanup();
});

describe("search_files with a backtracking pattern", () => {
  it("returns an error to the model and finishes the turn", async () => {
    const work = join(home.home, "work");
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, "evil.txt"), `${"a".repeat(48)}!\n`);
    fake.enqueue(
      { toolCalls: [{ name: "search_files", arguments: { pattern: "(a+)+$" } }] },
      { text: "the pattern was too slow" },
    );
    const r = await runIris(["-p", "search", ...routeArgs(fake.baseUrl, "chat_completions")], {
      env: { IRIS_HOME: home.home },
      cwd: work,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("the pattern was too slow");
    const toolResult = fake.requests[1]?.rawBody.toString("utf8") ?? "";
    expect(toolResult).toMatch(/is too slow/);
    expect(fake.violations).toEqual([]);
  }, 60_000);
});
