// The fail-closed half of the approval check (T4): one simple command runs unasked only when the
// allow-list proves it harmless — a known program (programs-*.ts), arguments its entry accepts,
// every file it writes an ordinary file of the work folder or a temp folder (judged after
// resolving symlinks), and no file it reads a credential. Anything else is a finding (asked).

import { installerFinding } from "./installers.js";
import { judgeWrite, type Place, readsCredential, realPath, searchReachesCredentials } from "./locations.js";
import type { Command } from "./parse.js";
import { type Finding, finding, opt, type ProgramRule, plain } from "./program-rule.js";
import { BASIC_PROGRAMS } from "./programs-basic.js";
import { DEV_PROGRAMS } from "./programs-dev.js";
import { OPS_PROGRAMS } from "./programs-ops.js";

/** The whole allow-list: program name → why it is harmless and what would make a call not. */
export const PROGRAMS: Readonly<Record<string, ProgramRule>> = {
  ...BASIC_PROGRAMS,
  ...DEV_PROGRAMS,
  ...OPS_PROGRAMS,
};

const WRITE_REDIRECT = /^(?:>|>>|>\||&>|&>>|<>)$/;
/** Programs whose first operand is a pattern to search for, unless -e/-f give it. */
const SEARCHERS = new Set(["grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep", "git-grep"]);
const READ_REDIRECT = /^(?:<|<>)$/;

/**
 * Why `cmd` is not proven harmless (empty when it is). `known`: programs the caller has already
 * judged another way (shells, interpreters, wrappers: concerns.ts), which are not "unknown".
 */
export function proveCommand(cmd: Command, place: Place, known: (name: string) => boolean): Finding[] {
  const out: Finding[] = [];
  const rule = cmd.name === "" ? undefined : PROGRAMS[cmd.name];
  // Keyed by program, so "always" lets that one program run, not everything unknown.
  const perProgram = (f: Finding): Finding => ({ key: `unproven:${cmd.name}`, description: f.description });
  if (cmd.name !== "" && !rule && !known(cmd.name))
    out.push(perProgram(finding("unproven_command", cmd.name)));
  const installing = cmd.name === "" ? undefined : installerFinding(cmd.name, cmd.args);
  if (installing) out.push(installing);
  if (rule?.unsafe) {
    const why = rule.unsafe(cmd.args, cmd);
    if (typeof why === "string") out.push(perProgram(finding("unproven_arguments", `${cmd.name}: ${why}`)));
    else if (why)
      out.push(why.key === "unproven_arguments" || why.key === "unproven_command" ? perProgram(why) : why);
  }
  const writes = cmd.redirects.filter((r) => WRITE_REDIRECT.test(r.op)).map((r) => r.target);
  if (rule?.writes) writes.push(...rule.writes(cmd.args, cmd));
  for (const target of writes) {
    if (/^&?\d*-?$/.test(target)) continue;
    const judged = judgeWrite(target, cmd.cwd ?? place.workdir, place);
    if (judged) out.push({ key: judged.key, description: `${judged.description} (${target})` });
  }
  for (const target of rule?.creates?.(cmd.args, cmd) ?? []) {
    const judged = judgeWrite(target, cmd.cwd ?? place.workdir, place);
    if (judged && judged.key !== "write_outside_workdir")
      out.push({ key: judged.key, description: `${judged.description} (${target})` });
  }
  const credential = readsCredentialIn(cmd, rule, place);
  if (credential) out.push(finding("reads_credential", credential));
  return dedupe(out);
}

function readsCredentialIn(cmd: Command, rule: ProgramRule | undefined, place: Place): string | undefined {
  const cwd = cmd.cwd ?? place.workdir;
  const candidates = cmd.redirects.filter((r) => READ_REDIRECT.test(r.op)).map((r) => r.target);
  // A search's pattern (`rg "import .* from" src`) is text, not a file it reads.
  const pattern =
    SEARCHERS.has(cmd.name) && !opt(cmd.args, "ef", "--regexp", "--file") ? plain(cmd.args)[0] : undefined;
  if (!rule?.namesOnly) candidates.push(...cmd.args.filter((a) => a !== pattern).flatMap(pathsIn));
  for (const c of candidates) {
    const real = realPath(c, cwd);
    if (readsCredential(c, place) || (real !== undefined && readsCredential(real, place))) return c;
  }
  if (rule?.recursive?.(cmd.args)) {
    const roots = plain(cmd.args).slice(pattern !== undefined ? 1 : 0);
    for (const root of roots.length ? roots : ["."]) {
      const real = realPath(root, cwd);
      if (real !== undefined && searchReachesCredentials(real, place)) return `a search of ${root}`;
    }
  }
  return undefined;
}

/** Path-like pieces of one argument: itself, an option's value, and words inside code or lists. */
function pathsIn(arg: string): string[] {
  const out = new Set<string>();
  const value = arg.startsWith("-") ? arg.slice(arg.indexOf("=") + 1 || arg.length) : arg;
  if (value) out.add(value.replace(/^[@<]/, ""));
  for (const piece of arg.split(/[\s'"`=@,;:()[\]{}<>|&]+/))
    if (piece.includes("/") || piece.startsWith(".")) out.add(piece);
  return [...out].filter((p) => p !== "" && p !== "-");
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const id = `${f.key}\u0000${f.description}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
