// Shared start of the chat commands: boot the profile, then start or resume the session.
import { type BootResult, boot, type IrisProcess, routeFlagsOf, type Session } from "@iris/host";
import type { GlobalFlags } from "./flags.js";

// The CLI is the first client of the host: one process, one session at a time.
export type CliStart = { ok: true; host: Session; process: IrisProcess } | { ok: false; exitCode: number };

export async function startCli(flags: GlobalFlags): Promise<CliStart> {
  const booted: BootResult = await boot({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
    route: routeFlagsOf(flags),
    platform: "cli",
    source: "cli",
    cwd: process.cwd(),
    ...(flags.yolo ? { yolo: true } : {}),
    ...(flags.maxRounds !== undefined ? { maxRounds: flags.maxRounds } : {}),
  });
  if (!booted.ok) {
    process.stderr.write(`${booted.message}\n`);
    return { ok: false, exitCode: booted.exitCode };
  }
  for (const w of booted.warnings)
    if (!/no API key is sent/.test(w)) process.stderr.write(`iris: warning: ${w}\n`);
  const { host, process: iris } = booted;
  if (flags.resume) {
    if (!host.resumeSession(flags.resume)) {
      process.stderr.write(`iris: no session '${flags.resume}' (see: iris sessions list)\n`);
      await iris.close();
      return { ok: false, exitCode: 2 };
    }
  } else if (flags.continue) {
    const last = host.store.listSessions({ limit: 1, source: "cli" })[0];
    if (last) host.resumeSession(last.id);
    else host.startSession();
  } else host.startSession();
  return { ok: true, host, process: iris };
}
