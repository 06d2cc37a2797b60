// Command → what the approval policy must know: a hard block, and the dangerous patterns it
// matches (each once, in catalogue order).
//
// Decisions: a command's text is judged where it runs, not where it is merely mentioned.
// `echo "rm -rf /"` only prints, so nothing matches; `echo "rm -rf /" | sh` matches
// pipe_to_shell; `sh -c`, `eval`, `$(…)`, here-documents fed to a shell, `find -exec` and
// `ssh host cmd` are opened and their commands judged as if typed. SQL patterns apply only
// when a database client (psql, mysql, sqlite3, …) is part of the command, so
// `grep "DROP TABLE" schema.sql` is not flagged. Relative paths are judged against the known
// working directory, so `cd / && rm -rf *` is hard-blocked like `rm -rf /`.
import { homedir } from "node:os";
import { HARDLINE_RULES } from "./hardline.js";
import { parseCommand } from "./parse.js";
import { COMMAND_PATTERNS } from "./patterns-commands.js";
import { FILE_PATTERNS } from "./patterns-files.js";
import type { CommandRule } from "./rule.js";

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
  return [...HARDLINE_RULES, ...DANGEROUS_PATTERNS].map(({ key, description }) => ({ key, description }));
}

export interface DetectOptions {
  /** What `~` and `$HOME` mean. Default the process's home folder. */
  home?: string;
  /** Where the command runs, when known: relative paths such as `*` are judged against it. */
  cwd?: string;
}

export function detectCommand(command: string, options: DetectOptions = {}): Detection {
  const home = options.home ?? homedir();
  const parsed = parseCommand(command, home, options.cwd);
  const hit = HARDLINE_RULES.find((r) => r.test(parsed, home));
  const matches = DANGEROUS_PATTERNS.filter((r) => r.test(parsed, home)).map(({ key, description }) => ({
    key,
    description,
  }));
  return hit ? { blocked: { key: hit.key, description: hit.description }, matches } : { matches };
}
