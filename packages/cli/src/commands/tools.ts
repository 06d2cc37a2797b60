// `iris tools [--platform P]`: the built-in tools a platform offers, and for each one it does not,
// why (SPEC T2). Always exit 0: a tool left out is a state, not an error.
import { toolsReport } from "@iris/host";
import type { GlobalFlags } from "../flags.js";
import { profileOrExit } from "./with-records.js";

export async function toolsCommand(flags: GlobalFlags, platform: string): Promise<number> {
  // A report: a config with errors gets a warning for each key left out, not an exit.
  const profile = profileOrExit(flags, { readOnly: true });
  if (typeof profile === "number") return profile;
  const rows = await toolsReport(profile, platform);
  const width = Math.max(...rows.map((r) => r.name.length));
  const lines = rows.map(
    (r) =>
      `${r.name.padEnd(width)}  ${r.toolset.padEnd(14)}  ${r.offered ? "offered" : `not offered: ${r.reason}`}`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}
