// `iris doctor [--repair]`: the report alone on stdout, exit 0 when all is well, 1 otherwise.

import { exitCodeOf, formatReport, routeFlagsOf, runDoctor } from "@iris/host";
import type { GlobalFlags } from "../flags.js";

export function doctorCommand(flags: GlobalFlags, opts: { repair?: boolean }): number {
  const { title, findings } = runDoctor({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
    route: routeFlagsOf(flags),
    ...(opts.repair ? { repair: true } : {}),
  });
  process.stdout.write(formatReport(title, findings));
  return exitCodeOf(findings);
}
