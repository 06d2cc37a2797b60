// `iris acp`: the ACP front end, loaded only when asked for.
import { runAcpStdio } from "@iris/acp";
import { routeFlagsOf } from "@iris/host";
import type { GlobalFlags } from "../flags.js";

export function runAcp(flags: GlobalFlags): Promise<number> {
  return runAcpStdio({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
    route: routeFlagsOf(flags),
    version: "0.1.0",
  });
}
