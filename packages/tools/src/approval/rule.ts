// The shape shared by the hard-blocked rules and the dangerous patterns.
import type { Command, ParsedCommand } from "./parse.js";

export interface CommandRule {
  /** Stable: what "always" persists and what config allow lists name. Never rename one. */
  key: string;
  /** Shown to the user and the model: what the command would do. */
  description: string;
  test(parsed: ParsedCommand, home: string): boolean;
}

/** A rule that looks at one command at a time. */
export function perCommand(
  key: string,
  description: string,
  test: (cmd: Command, home: string) => boolean,
): CommandRule {
  return { key, description, test: (parsed, home) => parsed.commands.some((c) => test(c, home)) };
}
