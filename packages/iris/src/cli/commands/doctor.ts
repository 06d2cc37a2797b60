// `iris doctor [--repair]`: the report alone on stdout, exit 0 when all is well, 1 otherwise.

import { checkEndpoints, exitCodeOf, formatReport, routeFlagsOf, runDoctor } from "@iris/host";
import type { GlobalFlags } from "../flags.js";

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
