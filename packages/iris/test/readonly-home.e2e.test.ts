// A read-only home (another user's, or a read-only mount) still lets `sessions list`, `usage`
// and `context` read (issue 12). Run as an unprivileged user through setpriv, so the home really
// cannot be written; needs root to switch users, and is skipped elsewhere.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, expect, it } from "vitest";
import { IRIS_BIN, routeArgs, runIris, tempHome } from "./helpers.js";

const canSwitchUser = process.getuid?.() === 0 && existsSync("/usr/bin/setpriv");

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

// CAP_DAC_READ_SEARCH (kept across the switch as an ambient capability) lets nobody read and
// traverse, never write: the checkout may sit in a folder other users cannot enter (a mode-700
// home), and nobody must still reach the bin and node_modules, while the home stays unwritable.
const READ_ANYWHERE = ["--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search"];

function asNobody(args: string[]) {
  return spawnSync(
    "/usr/bin/setpriv",
    [
      "--reuid=65534",
      "--regid=65534",
      "--clear-groups",
      ...READ_ANYWHERE,
      process.execPath,
      IRIS_BIN,
      ...args,
    ],
    { env: { PATH: process.env.PATH ?? "", IRIS_HOME: home.home, HOME: "/nonexistent" }, encoding: "utf8" },
  );
}

it.skipIf(!canSwitchUser)("sessions list, usage and context read a home the user cannot write", async () => {
  fake.enqueue({ text: "stored answer" });
  const first = await runIris(["-p", "hello", ...routeArgs(fake.baseUrl, "chat_completions")], {
    env: { IRIS_HOME: home.home },
  });
  expect(first.code).toBe(0);
  // Readable by everyone, writable by the owner (root) only.
  chmodSync(home.home, 0o755);
  for (const name of readdirSync(home.home)) chmodSync(join(home.home, name), 0o644);

  const list = asNobody(["sessions", "list"]);
  expect(list.stderr).toBe("");
  expect(list.status).toBe(0);
  expect(list.stdout).toContain("cli");
  const usage = asNobody(["usage"]);
  expect(usage.status).toBe(0);
  expect(usage.stdout).toMatch(/total \(1 session\)/);
  const context = asNobody(["context", "--provider", "custom", "--base-url", fake.baseUrl, "--model", "m"]);
  expect(context.stderr).not.toMatch(/Error|at .*\.js:\d+/);
  expect(context.status).toBe(0);
  // Reading is all nobody may do: the home still cannot be written.
  const write = spawnSync(
    "/usr/bin/setpriv",
    [
      "--reuid=65534",
      "--regid=65534",
      "--clear-groups",
      ...READ_ANYWHERE,
      "/bin/sh",
      "-c",
      `: > '${home.home}/probe'`,
    ],
    { encoding: "utf8" },
  );
  expect(write.status).not.toBe(0);
});
