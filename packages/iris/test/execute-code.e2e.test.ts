// execute_code end to end: `iris -p` whose model writes one program that calls read_file and
// terminal 20 times each; the whole job takes one model round (the tool call, then the answer),
// and the inner calls ran through the session's tool box (files made by the terminal calls).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, skipWithoutBwrap, startFakeLlm } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeArgs, runIris, tempHome } from "./helpers.js";

describe.skipIf(skipWithoutBwrap())("execute_code through iris -p", () => {
  let fake: FakeLlm;
  let home: ReturnType<typeof tempHome>;
  let work: string;

  beforeAll(async () => {
    fake = await startFakeLlm();
    home = tempHome();
    work = join(home.home, "work");
    mkdirSync(work, { recursive: true });
    writeFileSync(join(home.home, "config.yaml"), "approvals:\n  mode: off\n");
    writeFileSync(join(work, "n.txt"), "7\n");
  });
  afterAll(async () => {
    await fake?.close();
    home?.cleanup();
  });

  it("40 tool steps in one model round", async () => {
    const code = [
      "s = 0",
      "for i in range(20):",
      "    s += int(iris.read_file(path='n.txt').split('|')[1])",
      "    iris.terminal(command=f'touch step-{i}')",
      "print('sum', s)",
    ].join("\n");
    fake.enqueue(
      { toolCalls: [{ name: "execute_code", arguments: { language: "python", code } }] },
      { text: "the sum is 140" },
    );
    const r = await runIris(["-p", "add it up", ...routeArgs(fake.baseUrl, "chat_completions")], {
      env: { IRIS_HOME: home.home },
      cwd: work,
    });
    expect(r.stdout).toContain("the sum is 140");
    expect(fake.requests.length).toBe(2);
    const result = JSON.stringify(fake.requests[1]?.body);
    expect(result).toContain("sum 140");
    expect(result).toContain("40 tool call(s)");
    expect(existsSync(join(work, "step-19"))).toBe(true);
  }, 60_000);
});
