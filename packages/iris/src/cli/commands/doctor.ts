// `iris doctor [--repair]`: the report alone on stdout, exit 0 when all is well, 1 otherwise.

import { routeFlagsOf } from "../../app/route.js";
import { exitCodeOf, formatReport } from "../../doctor/report.js";
import { runDoctor } from "../../doctor/run.js";
import type { GlobalFlags } from "../main.js";

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
