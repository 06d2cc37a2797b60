// bubblewrap for execute_code's sandbox tests. Without it the tests skip on a developer's
// machine but fail under CI=true.
import { existsSync } from "node:fs";

export function bwrapInstalled(): boolean {
  return existsSync("/usr/bin/bwrap") && existsSync("/usr/bin/python3");
}

/** describe.skipIf(…) argument: skip only outside CI. */
export function skipWithoutBwrap(): boolean {
  if (bwrapInstalled()) return false;
  if (process.env.CI === "true")
    throw new Error(
      "bubblewrap or python3 is not installed: the execute_code tests need them (apt-get install -y bubblewrap python3; .ci/run does)",
    );
  return true;
}
