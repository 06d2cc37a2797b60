// `iris tools [--platform P]`: the built-in tools a platform offers, and for each one it does not,
// why (SPEC T2). Always exit 0: a tool left out is a state, not an error.
import { loadProfileOrExit, toolsReport } from "@iris/host";
import type { GlobalFlags } from "../flags.js";

export async function toolsCommand(flags: GlobalFlags, platform: string): Promise<number> {
  const loaded = loadProfileOrExit({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
  });
  if (!loaded.ok) {
    process.stderr.write(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  const rows = await toolsReport(loaded.profile, platform);
  const width = Math.max(...rows.map((r) => r.name.length));
  const lines = rows.map(
    (r) =>
      `${r.name.padEnd(width)}  ${r.toolset.padEnd(14)}  ${r.offered ? "offered" : `not offered: ${r.reason}`}`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}
