// `iris gateway webchat add-user|users|remove-user` through the built command: each user gets a
// token of their own, printed once on stdout and kept only as a hash in state.db.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { runIris, type TempHome, tempHome } from "./helpers.js";

let h: TempHome;
beforeEach(() => {
  h = tempHome();
  writeFileSync(join(h.home, "config.yaml"), "model: {provider: openai, name: gpt-4.1}\n");
});
afterEach(() => h.cleanup());

it("adds a web chat user with their own token, lists and removes them", async () => {
  const env = { IRIS_HOME: h.home };
  const added = await runIris(["gateway", "webchat", "add-user", "ann"], { env });
  expect(added.code).toBe(0);
  const token = /login token \(shown once; give it to ann only\): (irl_\S+)/.exec(added.stdout)?.[1] ?? "";
  expect(token).not.toBe("");
  expect(added.stderr).not.toContain(token);
  const again = await runIris(["gateway", "webchat", "add-user", "ann"], { env });
  expect(again.stdout).toMatch(
    /new token for web chat user ann \(the old token and its logins no longer work\)/,
  );
  expect(again.stdout).not.toContain(token);
  const bad = await runIris(["gateway", "webchat", "add-user", "a b"], { env });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('user name "a b"');
  expect((await runIris(["gateway", "webchat", "users"], { env })).stdout).toMatch(/^ann {2}since /);
  expect(readFileSync(join(h.home, "state.db")).includes(token)).toBe(false);
  expect((await runIris(["gateway", "webchat", "remove-user", "ann"], { env })).code).toBe(0);
  const gone = await runIris(["gateway", "webchat", "remove-user", "ann"], { env });
  expect(gone.code).toBe(1);
  expect(gone.stderr).toContain("no web chat user ann");
});
