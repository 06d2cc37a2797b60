// Shared start of the chat commands: boot the profile, then start or resume the session.
import { type BootResult, boot } from "../app/boot.js";
import type { SessionHost } from "../app/host.js";
import { routeFlagsOf } from "../app/route.js";
import type { GlobalFlags } from "./main.js";

export type CliStart = { ok: true; host: SessionHost } | { ok: false; exitCode: number };

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
  const { host } = booted;
  if (flags.resume) {
    if (!host.resumeSession(flags.resume)) {
      process.stderr.write(`iris: no session '${flags.resume}' (see: iris sessions list)\n`);
      host.close();
      return { ok: false, exitCode: 2 };
    }
  } else if (flags.continue) {
    const last = host.store.listSessions({ limit: 1, source: "cli" })[0];
    if (last) host.resumeSession(last.id);
    else host.startSession();
  } else host.startSession();
  return { ok: true, host };
}
