// `iris acp`: the ACP front end, loaded only when asked for.
import { runAcpStdio } from "@iris/acp";
import type { GlobalFlags } from "@iris/cli";
import { routeFlagsOf } from "@iris/host";

export function runAcp(flags: GlobalFlags): Promise<number> {
  return runAcpStdio({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
    route: routeFlagsOf(flags),
    version: "0.1.0",
  });
}
