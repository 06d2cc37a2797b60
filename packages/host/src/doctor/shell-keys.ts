// Keys exported in the shell rather than kept in the profile's .env (SPEC K3): every program the
// shell starts inherits them, and any process of the same user can read them in
// /proc/<pid>/environ. Iris removes them from what it starts, but cannot hide them from the rest.
import { isSecretEnvName } from "@iris/tools";
import type { Finding } from "./types.js";

export function checkShellKeys(env: Record<string, string | undefined>, dotenvPath: string): Finding {
  const names = Object.keys(env)
    .filter((k) => isSecretEnvName(k) && (env[k] ?? "").trim() !== "")
    .sort();
  if (names.length === 0)
    return { status: "ok", subject: "shell environment", message: "no API keys exported" };
  return {
    status: "warn",
    subject: "shell environment",
    message:
      `${names.join(", ")} ${names.length === 1 ? "is" : "are"} exported in the shell: every program started from it, ` +
      "and any process of this user through /proc/<pid>/environ, can read the key (Iris keeps it from what it starts)",
    fix: `keep the key in ${dotenvPath} and unset it in the shell (unset ${names.join(" ")}; remove the export from the start-up file)`,
  };
}
