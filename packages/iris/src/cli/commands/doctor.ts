// `iris doctor [--repair]`: the report alone on stdout, exit 0 when all is well, 1 otherwise.

import { routeFlagsOf } from "../../app/route.js";
import { checkEndpoints } from "../../doctor/endpoints.js";
import { exitCodeOf, formatReport } from "../../doctor/report.js";
import { runDoctor } from "../../doctor/run.js";
import type { GlobalFlags } from "../main.js";

export async function doctorCommand(
  flags: GlobalFlags,
  opts: { repair?: boolean; offline?: boolean },
): Promise<number> {
  const { title, findings, endpoints } = runDoctor({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
    route: routeFlagsOf(flags),
    ...(opts.repair ? { repair: true } : {}),
  });
  // Whether anything listens at each endpoint (2 s each, in parallel); --offline skips it.
  if (!opts.offline) findings.push(...(await checkEndpoints(endpoints)));
  process.stdout.write(formatReport(title, findings));
  return exitCodeOf(findings);
}
