// The shape of the allow-list (T4): a program runs without a question only when its entry
// proves this call harmless. Each entry says why the program is harmless (`reason`) and, for
// the arguments that would make it write, delete, run code or change state, why it is not.
import type { Command } from "./parse.js";

/** Why a call is not proven harmless: a pattern key and what the call would do. */
export interface Finding {
  key: string;
  description: string;
}

export interface ProgramRule {
  /** Why this program, as let through, cannot harm: shown in the table's docs and tests. */
  reason: string;
  /** Why this call must be asked about, or undefined when its arguments are harmless. */
  unsafe?(args: readonly string[], cmd: Command): Finding | string | undefined;
  /** Files this call writes besides its redirections: judged by where they really are. */
  writes?(args: readonly string[], cmd: Command): string[];
  /** Folders this call only creates (mkdir): outside the work folder is fine, protected places are not. */
  creates?(args: readonly string[], cmd: Command): string[];
  /** Walks folders below its operands (grep -r, rg, tar c): a search that may reach a credential. */
  recursive?(args: readonly string[]): boolean;
  /** Prints names only, never contents (ls, stat, echo): its operands are not credential reads. */
  namesOnly?: boolean;
}

export const UNPROVEN = {
  unproven_command: "runs a program the check does not know to be harmless",
  unproven_arguments: "its arguments may make it write, delete, run a command or change state",
  destructive_git: "git command that throws away work or rewrites history",
  cloud_change: "changes or deletes cloud or cluster resources",
  crontab_replace: "replaces or edits the user's scheduled jobs (crontab)",
  permission_change: "changes ownership, ACLs, attributes or setuid/setgid bits",
  service_change: "starts, enables or changes a system service or session",
  package_global: "installs or configures something outside the work folder (global packages, tool config)",
  installs_software: "installs software: a package or program, and the code it runs",
  runs_code: "runs code the check cannot see (a downloaded package, a script, a hook)",
  network_tool: "opens a network connection or listener the check cannot see through",
  reads_credential: "reads a credential",
} as const;

export type UnprovenKey = keyof typeof UNPROVEN;

export function finding(key: UnprovenKey, detail?: string): Finding {
  return { key, description: detail ? `${UNPROVEN[key]} (${detail})` : UNPROVEN[key] };
}

/** Whether a short option letter (in a cluster like `-rf`) or a long option (also `--x=v`) is given. */
export function opt(args: readonly string[], shorts: string, ...longs: string[]): boolean {
  for (const a of args) {
    if (a === "--") return false;
    if (a.startsWith("--")) {
      if (longs.some((l) => a === l || a.startsWith(`${l}=`))) return true;
    } else if (a.startsWith("-") && a.length > 1 && shorts !== "") {
      if ([...a.slice(1)].some((c) => shorts.includes(c))) return true;
    }
  }
  return false;
}

/**
 * The value of `-o X`, `-oX`, `--output X` or `--output=X` (every occurrence), also inside a
 * cluster of short options (`-sSo X`, `-sSoX`): the letter takes the rest of the cluster or the
 * next argument, as getopt reads it.
 */
export function optValues(args: readonly string[], short: string | undefined, ...longs: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--") break;
    const next = args[i + 1];
    for (const l of longs) {
      if (a === l && next !== undefined) out.push(next);
      else if (a.startsWith(`${l}=`)) out.push(a.slice(l.length + 1));
    }
    const at = short ? a.indexOf(short) : -1;
    if (at > 0 && a.startsWith("-") && !a.startsWith("--") && /^-[A-Za-z0-9]*$/.test(a.slice(0, at))) {
      if (at === a.length - 1) {
        if (next !== undefined) out.push(next);
      } else out.push(a.slice(at + 1));
    }
  }
  return out;
}

/** Arguments not starting with `-` (after `--` everything counts), skipping values of `valued` options. */
export function plain(args: readonly string[], valued: readonly string[] = []): string[] {
  const out: string[] = [];
  let rest = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (rest) out.push(a);
    else if (a === "--") rest = true;
    else if (valued.includes(a)) i++;
    else if (!a.startsWith("-") || a === "-") out.push(a);
  }
  return out;
}
