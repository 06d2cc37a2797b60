// Shared start of the chat commands: boot the profile, then start or resume the session.

import type { IrisProcess, Session } from "@iris/host";
import { type BootResult, boot, routeFlagsOf } from "@iris/host";
import type { GlobalFlags } from "./flags.js";
import { resumeOnItsModel } from "./resume.js";
import { resolveSession, type SessionLookup } from "./session-ref.js";
import { browseSessions, onRawTerminal, worthResuming } from "./ui/session-browser.js";

// The CLI is the first client of the host: one process, one session at a time.
export type CliStart = { ok: true; session: Session; process: IrisProcess } | { ok: false; exitCode: number };

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
    ...(flags.toolsets ? { toolsets: flags.toolsets } : {}),
    ...(flags.systemPrompt !== undefined || flags.appendSystemPrompt !== undefined
      ? {
          promptEdits: {
            ...(flags.systemPrompt !== undefined ? { replace: flags.systemPrompt } : {}),
            ...(flags.appendSystemPrompt !== undefined ? { append: flags.appendSystemPrompt } : {}),
          },
        }
      : {}),
  });
  if (!booted.ok) {
    process.stderr.write(`${booted.message}\n`);
    return { ok: false, exitCode: booted.exitCode };
  }
  for (const w of booted.warnings)
    if (!/no API key is sent/.test(w)) process.stderr.write(`iris: warning: ${w}\n`);
  const { session, process: iris } = booted;
  if (flags.resume !== undefined) {
    const id =
      flags.resume === true
        ? await pickOnTerminal(session)
        : await resolveSession(session.stored, flags.resume, true);
    if (!id.ok) {
      if (id.error) process.stderr.write(`iris: ${id.error}\n`);
      await iris.close();
      return { ok: false, exitCode: id.error ? 2 : 0 };
    }
    const note = await resumeOnItsModel(session, id.row, flags);
    if (note) process.stderr.write(`iris: warning: ${note}\n`);
  } else if (flags.continue) {
    // This folder's newest session: another project's conversation is never taken up by mistake.
    const last = (await session.stored.recent({ limit: 1, source: "cli", cwd: process.cwd() }))[0];
    if (last) {
      const note = await resumeOnItsModel(session, last, flags);
      if (note) process.stderr.write(`iris: warning: ${note}\n`);
    } else {
      process.stderr.write("iris: no earlier session in this folder: a new one starts (iris -r picks any)\n");
      await session.startSession();
    }
  } else await session.startSession();
  return { ok: true, session, process: iris };
}

/** `iris -r` without an id: browse the sessions (this folder first) and pick one; Esc cancels. */
async function pickOnTerminal(session: Session): Promise<SessionLookup> {
  const rows = (await session.stored.recent({ limit: 500 })).filter(worthResuming);
  if (!rows.length) return { ok: false, error: "no sessions to resume yet" };
  if (!process.stdin.isTTY)
    return { ok: false, error: "-r without an id needs a terminal to pick on; give an id" };
  const picked = await onRawTerminal(process.stdin, (keys) =>
    browseSessions(rows, process.cwd(), keys, process.stdout),
  );
  return picked ? { ok: true, row: picked } : { ok: false, error: "" };
}
