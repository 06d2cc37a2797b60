// Command → what the approval policy must know: a hard block, and the dangerous patterns it
// matches (each once, in catalogue order).
//
// Decisions: the command is parsed by a real bash parser (shell-parser.ts), and whatever is only
// known at run time is asked about (concerns.ts). A command's text is judged where it runs, not where it is merely mentioned.
// `echo "rm -rf /"` only prints, so nothing matches; `echo "rm -rf /" | sh` matches
// pipe_to_shell; `sh -c`, `eval`, `$(…)`, here-documents fed to a shell, `find -exec` and
// `ssh host cmd` are opened and their commands judged as if typed. SQL patterns apply only
// when a database client (psql, mysql, sqlite3, …) is part of the command, so
// `grep "DROP TABLE" schema.sql` is not flagged. Relative paths are judged against the known
// working directory, so `cd / && rm -rf *` is hard-blocked like `rm -rf /`.
import { homedir } from "node:os";
import { CONCERNS, type Concern } from "./concerns.js";
import { HARDLINE_RULES } from "./hardline.js";
import { type ParsedCommand, parseCommand } from "./parse.js";
import { COMMAND_PATTERNS } from "./patterns-commands.js";
import { FILE_PATTERNS } from "./patterns-files.js";
import type { CommandRule } from "./rule.js";
import { analyseShell } from "./shell-analyse.js";
import { loadShellParser } from "./shell-parser.js";

export interface PatternMatch {
  key: string;
  description: string;
}

export interface Detection {
  /** Set when the command is in the hard-blocked set: no mode runs it. */
  blocked?: PatternMatch;
  /** Dangerous patterns that need approval. */
  matches: PatternMatch[];
}

export const DANGEROUS_PATTERNS: readonly CommandRule[] = [...FILE_PATTERNS, ...COMMAND_PATTERNS];

/** Every key the policy may ask about, with its description (for config validation and docs). */
export function patternCatalogue(): PatternMatch[] {
  const concerns = Object.entries(CONCERNS).map(([key, description]) => ({ key, description }));
  return [
    ...[...HARDLINE_RULES, ...DANGEROUS_PATTERNS].map(({ key, description }) => ({ key, description })),
    ...concerns,
  ];
}

export interface DetectOptions {
  /** What `~` and `$HOME` mean. Default the process's home folder. */
  home?: string;
  /** Where the command runs, when known: relative paths such as `*` are judged against it. */
  cwd?: string;
}

/**
 * Parses `command` with a real bash parser (loaded on the first call) and returns the hard block
 * and every pattern or concern that needs approval. Fails closed: what the parser cannot read,
 * or what is only known at run time, is a concern (asked about), never silently allowed.
 */
export async function detectCommand(command: string, options: DetectOptions = {}): Promise<Detection> {
  const home = options.home ?? homedir();
  const parser = await loadShellParser();
  const analysis = analyseShell(parser, command, home, options.cwd);
  // Text bash cannot parse is still read by the old lexer, so a hard block stays a block.
  const parsed = analysis.concerns.some((c) => c.key === "parse_error")
    ? mergeParsed(analysis.parsed, parseCommand(command, home, options.cwd))
    : analysis.parsed;
  return judge(parsed, home, analysis.concerns);
}

function mergeParsed(a: ParsedCommand, b: ParsedCommand): ParsedCommand {
  return { raw: a.raw, commands: [...a.commands, ...b.commands] };
}

function judge(parsed: ParsedCommand, home: string, concerns: readonly Concern[]): Detection {
  const hit = HARDLINE_RULES.find((r) => r.test(parsed, home));
  const matches: PatternMatch[] = DANGEROUS_PATTERNS.filter((r) => r.test(parsed, home)).map(
    ({ key, description }) => ({ key, description }),
  );
  for (const c of concerns) matches.push({ key: c.key, description: c.description });
  return hit ? { blocked: { key: hit.key, description: hit.description }, matches } : { matches };
}
