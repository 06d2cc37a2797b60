// Database errors name the file and the fix (issue 12), through the built bin.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "@iris/host";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { routeArgs, runIris, tempHome } from "./helpers.js";

let home: ReturnType<typeof tempHome>;
let fake: FakeLlm;
beforeEach(async () => {
  home = tempHome();
  fake = await startFakeLlm();
});
afterEach(async () => {
  await fake.close();
  home.cleanup();
});

it("a state.db that is not a database: every command names the file and how to set it aside", async () => {
  const db = join(home.home, "state.db");
  writeFileSync(db, "this is not a database at all, just text that happens to be long enough".repeat(100));
  const list = await runIris(["sessions", "list"], { env: { IRIS_HOME: home.home } });
  expect(list.code).toBe(1);
  expect(list.stderr).toContain(`${db} is damaged or not an Iris database`);
  expect(list.stderr).toContain(`mv ${db} ${db}.broken`);
  expect(list.stderr).not.toMatch(/at .*\.js:\d+/);
  const doctor = await runIris(["doctor", "--offline"], { env: { IRIS_HOME: home.home } });
  expect(doctor.stdout).toContain(`fix: mv ${db} ${db}.broken`);
  expect(doctor.stdout).not.toContain("check the file's owner");
});

it("a store opened read-only reads sessions and usage, and refuses writes", async () => {
  fake.enqueue({ text: "stored" });
  expect(
    (
      await runIris(["-p", "hi", ...routeArgs(fake.baseUrl, "chat_completions")], {
        env: { IRIS_HOME: home.home },
      })
    ).code,
  ).toBe(0);
  const ro = openStore(join(home.home, "state.db"), { readonly: true });
  const [session] = await ro.listSessions({ limit: 5 });
  expect((await ro.activePath(session!.id)).map((n) => n.role)).toEqual(["user", "assistant"]);
  expect(await ro.usageForSession(session!.id)).toHaveLength(1);
  await expect(ro.createSession({ source: "cli" })).rejects.toThrow(/readonly/);
  await ro.close();
});
