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
import {
  CONCERNS,
  type Concern,
  EVAL_NAMES,
  INTERPRETER_NAMES,
  SHELL_NAMES,
  WRAPPER_NAMES,
} from "./concerns.js";
import { FILE_ACCESS_REASONS } from "./file-access.js";
import { HARDLINE_RULES } from "./hardline.js";
import { type Place, WRITE_REASONS } from "./locations.js";
import { type ParsedCommand, parseCommand } from "./parse.js";
import { COMMAND_PATTERNS } from "./patterns-commands.js";
import { FILE_PATTERNS } from "./patterns-files.js";
import { profileMention } from "./profile-mention.js";
import { UNPROVEN } from "./program-rule.js";
import { proveCommand } from "./proof.js";
import type { CommandRule } from "./rule.js";
import { runtimeCredentialRead } from "./runtime-reads.js";
import { analyseShell } from "./shell-analyse.js";
import { shellParser } from "./shell-parser.js";
import { argumentScripts, argumentTails } from "./tails.js";
import { writtenScripts } from "./written-scripts.js";

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
  const concerns = Object.entries({ ...CONCERNS, ...UNPROVEN, ...WRITE_REASONS, ...FILE_ACCESS_REASONS }).map(
    ([key, description]) => ({
      key,
      description,
    }),
  );
  return dedupeByKey([
    ...[...HARDLINE_RULES, ...DANGEROUS_PATTERNS].map(({ key, description }) => ({ key, description })),
    ...concerns,
    { key: "hidden_block", description: "hides a hard-blocked program or a disk behind run-time text" },
  ]);
}

export interface DetectOptions {
  /** What `~` and `$HOME` mean. Default the process's home folder. */
  home?: string;
  /** Where the command runs, when known: relative paths such as `*` are judged against it. */
  cwd?: string;
  /** The work folder: writes inside it are ordinary. Default `cwd`. */
  workdir?: string;
  /** The Iris profile folder (its config, keys and skills). Default `~/.iris`. */
  profile?: string;
}

/**
 * Parses `command` with the bash parser (bash/parse.ts) and returns the hard block
 * and every pattern or concern that needs approval. Fails closed: what the parser cannot read,
 * or what is only known at run time, is a concern (asked about), never silently allowed.
 */
export async function detectCommand(command: string, options: DetectOptions = {}): Promise<Detection> {
  return detectAt(command, options, 0);
}

async function detectAt(command: string, options: DetectOptions, depth: number): Promise<Detection> {
  const home = options.home ?? homedir();
  const place: Place = {
    home,
    ...((options.workdir ?? options.cwd) ? { workdir: options.workdir ?? options.cwd } : {}),
    ...(options.profile ? { profile: options.profile } : {}),
  };
  const analysis = analyseShell(shellParser(), command, home, options.cwd);
  // Text bash cannot parse is still read by the old lexer, so a hard block stays a block.
  const parsed = analysis.concerns.some((c) => c.key === "parse_error")
    ? mergeParsed(analysis.parsed, parseCommand(command, home, options.cwd))
    : analysis.parsed;
  const judged = judge(parsed, place, analysis.concerns);
  if (judged.blocked || depth >= 2) return judged;
  // `echo OigpeyA6fDomIH07Og== | base64 -d | sh`, `echo reboot > x.sh; sh x.sh`: decoded text run
  // as code, and a script the line writes and runs, are judged as typed.
  for (const text of [...decodedScripts(parsed), ...writtenScripts(parsed), ...argumentScripts(parsed)]) {
    const inner = await detectAt(text, options, depth + 1);
    if (inner.blocked)
      return {
        blocked: {
          key: "hidden_block",
          description: `hides a hard block in encoded text or a script it writes (${inner.blocked.description})`,
        },
        matches: judged.matches,
      };
  }
  return judged;
}

/** Programs that decode text a line may then run. */
const DECODES = /\b(?:base64|base32|basenc|openssl|xxd|uudecode)\b[^|;&]*\s(?:-d|--decode|-D|-r|-base64)\b/;

/** Base64 words of a line that decodes text and runs code, decoded when they are plain text. */
function decodedScripts(parsed: ParsedCommand): string[] {
  const texts = parsed.texts ?? [parsed.raw];
  if (!texts.some((t) => DECODES.test(t))) return [];
  const runs = parsed.commands.some((c) => judgedElsewhere(c.name) || c.name === "source" || c.name === ".");
  if (!runs && !texts.some((t) => /\|\s*(?:ba|da|z|k)?sh\b|\beval\b/.test(t))) return [];
  const out: string[] = [];
  for (const t of texts)
    for (const m of t.matchAll(/[A-Za-z0-9+/]{8,}={0,2}/g)) {
      const text = Buffer.from(m[0], "base64").toString("utf8");
      if (/^[\t\n\r\x20-\x7e]+$/.test(text)) out.push(text);
    }
  return out.slice(0, 8);
}

/** Programs concerns.ts judges on their own (shells, interpreters, wrappers, eval). */
const judgedElsewhere = (name: string): boolean =>
  SHELL_NAMES.has(name) || INTERPRETER_NAMES.has(name) || WRAPPER_NAMES.has(name) || EVAL_NAMES.has(name);

function mergeParsed(a: ParsedCommand, b: ParsedCommand): ParsedCommand {
  return { raw: a.raw, commands: [...a.commands, ...b.commands] };
}

function judge(parsed: ParsedCommand, place: Place, concerns: readonly Concern[]): Detection {
  const { home } = place;
  const tails = argumentTails(parsed);
  const hit =
    HARDLINE_RULES.find((r) => r.test(parsed, home) || (tails.commands.length > 0 && r.test(tails, home))) ??
    hiddenBlock(parsed, concerns);
  const matches: PatternMatch[] = DANGEROUS_PATTERNS.filter((r) => r.test(parsed, home)).map(
    ({ key, description }) => ({ key, description }),
  );
  for (const c of concerns) matches.push({ key: c.key, description: c.description });
  const functions = new Set(parsed.functions ?? []);
  const known = (name: string) => judgedElsewhere(name) || functions.has(name);
  for (const cmd of parsed.commands) matches.push(...proveCommand(cmd, place, known));
  const runtimeRead = runtimeCredentialRead(parsed, place);
  if (runtimeRead) matches.push(runtimeRead);
  const selfModification = profileMention(parsed, place, matches);
  if (selfModification) matches.push(selfModification);
  const unique = dedupeByKey(matches);
  return hit
    ? { blocked: { key: hit.key, description: hit.description }, matches: unique }
    : { matches: unique };
}

function dedupeByKey(matches: PatternMatch[]): PatternMatch[] {
  const byKey = new Map<string, PatternMatch>();
  for (const m of matches) if (!byKey.has(m.key)) byKey.set(m.key, m);
  return [...byKey.values()];
}

/** Names of hard-blocked programs and devices, as text. */
const BLOCKED_WORDS =
  /(?:^|[\s;|&(/`=])(?:mkfs[\w.]*|mke2fs|mkdosfs|mkntfs|mkexfatfs|mkswap|wipefs|blkdiscard|kexec|poweroff|reboot|halt|shutdown|telinit|hibernate)(?=[\s;|&)`]|$)|\/dev\/(?:sd|nvme|vd|xvd|hd[a-z]|mmcblk|disk\/|mapper\/|md\d|dm-|block\/|root\b|\$)|sysrq-trigger|:\s*\|\s*:\s*&/;

/**
 * A program or argument only known at run time, in a line whose text names a hard-blocked program
 * or a disk once quotes and backslashes are removed (`$(echo mkfs.ext4) /dev/sda`, `m""kfs`): no
 * mode runs it, since `off` would run whatever the run time makes of it.
 */
function hiddenBlock(
  parsed: ParsedCommand,
  concerns: readonly Concern[],
): { key: string; description: string } | undefined {
  const opaque = concerns.some((c) =>
    [
      "dynamic_command",
      "dynamic_argument",
      "dynamic_redirect",
      "eval_code",
      "shell_code",
      "interpreter_code",
      "parse_error",
      "deferred_code",
    ].includes(c.key),
  );
  if (!opaque) return undefined;
  const texts = (parsed.texts ?? [parsed.raw]).map((t) => t.replace(/\\\n|["'\\]/g, ""));
  return texts.some((t) => BLOCKED_WORDS.test(t))
    ? { key: "hidden_block", description: "hides a hard-blocked program or a disk behind run-time text" }
    : undefined;
}
