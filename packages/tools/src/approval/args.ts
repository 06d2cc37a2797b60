// Reading a command's arguments: flags, operands, write targets.
import type { Command } from "./parse.js";

/** Operands: the arguments that are not options (everything after `--` counts). */
export function operands(args: readonly string[]): string[] {
  const out: string[] = [];
  let afterDashes = false;
  for (const a of args) {
    if (!afterDashes && a === "--") afterDashes = true;
    else if (afterDashes || !a.startsWith("-") || a === "-") out.push(a);
  }
  return out;
}

/** True when a short-option cluster (`-rf`, `-fr`) contains `letter`, or a long option is present. */
export function hasFlag(args: readonly string[], short: string | undefined, long?: string): boolean {
  for (const a of args) {
    if (a === "--") return false;
    if (long !== undefined && (a === long || a.startsWith(`${long}=`))) return true;
    if (short !== undefined && /^-[A-Za-z0-9]+$/.test(a) && a.slice(1).includes(short)) return true;
  }
  return false;
}

export function isRecursiveFlagged(cmd: Command): boolean {
  return hasFlag(cmd.args, "r", "--recursive") || hasFlag(cmd.args, "R");
}

const WRITE_REDIRECT = /^(?:>|>>|>\||&>|&>>|<>)$/;

/** Files the command writes to: redirects, tee, cp/mv/install/ln destinations, sed -i, dd of=. */
export function writeTargets(cmd: Command): string[] {
  const targets = cmd.redirects.filter((r) => WRITE_REDIRECT.test(r.op)).map((r) => r.target);
  const ops = operands(cmd.args);
  switch (cmd.name) {
    case "tee":
    case "truncate":
    case "touch":
      targets.push(...ops);
      break;
    case "cp":
    case "mv":
    case "install":
    case "ln":
    case "rsync":
    case "scp": {
      const t = optionValue(cmd.args, "-t", "--target-directory");
      if (t !== undefined) targets.push(t);
      else if (ops.length >= 2) targets.push(ops[ops.length - 1] as string);
      break;
    }
    case "sed":
    case "perl":
      if (cmd.args.some((a) => /^-[A-Za-z]*i/.test(a) || a.startsWith("--in-place"))) targets.push(...ops);
      break;
    case "dd":
      for (const a of cmd.args) if (a.startsWith("of=")) targets.push(a.slice(3));
      break;
  }
  return targets;
}

export function optionValue(args: readonly string[], short: string, long?: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === short || (long !== undefined && a === long)) return args[i + 1];
    if (long !== undefined && a.startsWith(`${long}=`)) return a.slice(long.length + 1);
  }
  return undefined;
}
