// What the approval check cannot see through, and therefore asks about (fail closed): code given
// as a string or a file to a shell or interpreter, wrappers that run another command, programs
// or arguments only known at run time, and text that is not valid bash. Each concern is a
// pattern key like the dangerous patterns, so "session"/"always" answers work the same way.
import { operands } from "./args.js";
import type { Command } from "./parse.js";
import { PROGRAMS } from "./proof.js";

export interface Concern {
  key: string;
  description: string;
}

export const CONCERNS = {
  parse_error: "the command is not valid bash, so it cannot be checked",
  dynamic_command: "the program to run is only known at run time",
  dynamic_argument: "an argument is only known at run time",
  dynamic_redirect: "writes to a file whose name is only known at run time",
  eval_code: "runs a string or a file as shell code (eval, source, trap, alias)",
  shell_code: "starts a shell that runs a script file, a -c string or its input",
  interpreter_code: "runs interpreter code (-c/-e strings, a script file, or its input)",
  wrapper: "runs another command through a wrapper (sudo, env, xargs, timeout, busybox, …)",
  find_exec: "find runs a command or deletes files (-exec, -ok, -delete)",
  path_program: "runs a program by a path outside the system folders (it may be a file just written)",
  code_env: "sets a variable that changes how later commands run (PATH, LD_PRELOAD, BASH_ENV, IFS, …)",
  deferred_code: "stores text containing a command substitution, which may run later",
  text_tool_exec: "awk or sed runs commands or writes files (system(), pipes, e, w)",
} as const;

export type ConcernKey = keyof typeof CONCERNS;

export function concern(key: ConcernKey, detail?: string): Concern {
  return { key, description: detail ? `${CONCERNS[key]} (${detail})` : CONCERNS[key] };
}

export const SHELL_NAMES = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "fish",
  "ash",
  "csh",
  "tcsh",
  "busybox",
  "pwsh",
  "powershell",
  "rbash",
  "yash",
  // They read shell commands from their input and run them later.
  "at",
  "batch",
]);

export const INTERPRETER_NAMES = new Set([
  "python",
  "python2",
  "python3",
  "pypy",
  "pypy3",
  "ipython",
  "perl",
  "ruby",
  "irb",
  "node",
  "nodejs",
  "php",
  "deno",
  "bun",
  "lua",
  "luajit",
  "Rscript",
  "R",
  "tclsh",
  "wish",
  "osascript",
  "jshell",
  "groovy",
  "julia",
  "expect",
  "ts-node",
  "tsx",
  "swift",
  "guile",
  "racket",
  "sbcl",
  "gdb",
]);

/** Arguments that only print information; an interpreter given nothing else runs no code. */
const INFO_FLAGS = new Set(["--version", "-V", "-v", "--help", "-h", "-VV"]);

/** `python -m pytest …`: running an installed module is like running any installed program. */
function runsInstalledModule(cmd: Command): boolean {
  if (/^(?:bun|deno)$/.test(cmd.name))
    return /^(?:test|install|i|add|remove|fmt|lint|check|info|doc|bench|outdated|pm|build)$/.test(
      cmd.args[0] ?? "",
    );
  return /^python[\d.]*$|^pypy3?$/.test(cmd.name) && cmd.args[0] === "-m" && cmd.args[1] !== undefined;
}

export const EVAL_NAMES = new Set(["eval", "source", ".", "trap", "alias", "enable", "fc"]);

/** Every name here runs another command given in its arguments. */
export const WRAPPER_NAMES = new Set([
  "sudo",
  "doas",
  "su",
  "runuser",
  "env",
  "command",
  "builtin",
  "exec",
  "nice",
  "ionice",
  "renice",
  "timeout",
  "xargs",
  "parallel",
  "nohup",
  "setsid",
  "stdbuf",
  "unbuffer",
  "chroot",
  "unshare",
  "nsenter",
  "taskset",
  "chrt",
  "flock",
  "watch",
  "strace",
  "ltrace",
  "time",
  "script",
  "caffeinate",
  "systemd-run",
  "firejail",
  "busybox",
  "toybox",
  "fakeroot",
  "proot",
  "catchsegv",
  "valgrind",
  "entr",
]);

/** Programs whose arguments cannot make them change anything: a run-time argument is harmless. */
export const READ_ONLY = new Set([
  "echo",
  "printf",
  "ls",
  "cat",
  "grep",
  "egrep",
  "fgrep",
  "head",
  "tail",
  "wc",
  "pwd",
  "true",
  "false",
  ":",
  "test",
  "[",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "stat",
  "file",
  "du",
  "df",
  "which",
  "type",
  "whoami",
  "id",
  "uname",
  "printenv",
  "seq",
  "cd",
  "pushd",
  "popd",
  "jq",
  "cut",
  "tr",
  "nl",
  "rev",
  "tac",
  "od",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "cksum",
  "diff",
  "cmp",
  "comm",
  "column",
  "fold",
  "expand",
  "unexpand",
  "shift",
  "return",
  "exit",
  "read",
  "wait",
  "sleep",
]);

/** Variables that change which program a name runs, or run code on their own. */
export const CODE_ENV =
  /^(?:PATH|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_[A-Z_]+|BASH_ENV|ENV|PROMPT_COMMAND|IFS|PS4|SHELLOPTS|BASHOPTS|GLOBIGNORE|GIT_[A-Z_]*(?:COMMAND|EDITOR|PAGER|EXTERNAL_DIFF|ASKPASS|PROXY|EXEC_PATH|CONFIG_PARAMETERS)|EDITOR|VISUAL|PAGER|NODE_OPTIONS|PYTHONSTARTUP|PYTHONPATH|PERL5OPT|PERL5LIB|RUBYOPT|PERLLIB|BROWSER|CDPATH)$/;

const SYSTEM_BIN = /^\/(?:usr\/(?:local\/)?)?s?bin\/[^/]+$/;

/** Concerns of one simple command, read by its (wrapper-stripped) name and arguments. */
export function commandConcerns(cmd: Command, written: string): Concern[] {
  const out: Concern[] = [];
  const { name, args } = cmd;
  // `env` or `env X=1` with no program only prints the environment.
  const wrappers = cmd.via.filter(
    (v) => WRAPPER_NAMES.has(v) && !(v === "env" && cmd.name === "") && !transparent(v, cmd),
  );
  if (wrappers.length) out.push(concern("wrapper", wrappers.join(", ")));
  if (written.includes("/") && !SYSTEM_BIN.test(written)) out.push(concern("path_program", written));
  if (name === "") return out;
  if (WRAPPER_NAMES.has(name) && !bareWrapper(cmd)) out.push(concern("wrapper", name));
  if (EVAL_NAMES.has(name)) {
    if (name !== "alias" || args.some((a) => a.includes("="))) out.push(concern("eval_code", name));
  }
  if (SHELL_NAMES.has(name) && !onlyInfo(args)) out.push(concern("shell_code", name));
  if (INTERPRETER_NAMES.has(name) && !runsInstalledModule(cmd) && runsInterpreterCode(cmd))
    out.push(concern("interpreter_code", name));
  if (name === "find" && args.some((a) => /^-(?:exec|execdir|ok|okdir|delete|fprint0?|fprintf|fls)$/.test(a)))
    out.push(concern("find_exec"));
  if (/^[gmn]?awk$/.test(name) && awkRunsCommands(args)) out.push(concern("text_tool_exec", name));
  if (name === "sed" && sedRunsCommands(args)) out.push(concern("text_tool_exec", name));
  if (
    name === "git" &&
    args.some((a, i) => args[i - 1] === "-c" && /!|\b(?:alias|core\.|credential)/.test(a))
  )
    out.push(concern("code_env", "git -c"));
  return out;
}

/** Wrappers that only time, bound or re-prioritise the command they run, which is judged itself. */
const TRANSPARENT = new Set(["timeout", "nice", "ionice", "stdbuf", "time", "nohup"]);

/** xargs adds words from its input: harmless only before a program that prints names (echo, ls, stat). */
function transparent(wrapper: string, cmd: Command): boolean {
  if (cmd.name === "") return false;
  if (TRANSPARENT.has(wrapper)) return true;
  const rule = PROGRAMS[cmd.name];
  return wrapper === "xargs" && rule?.namesOnly === true && !rule.writes && !rule.creates && !rule.unsafe;
}

function onlyInfo(args: readonly string[]): boolean {
  return args.length > 0 && args.every((a) => INFO_FLAGS.has(a));
}

/** `env` alone prints the environment; `command -v x` only looks a name up. */
function bareWrapper(cmd: Command): boolean {
  if (cmd.name === "env" || cmd.name === "printenv")
    return cmd.args.every((a) => a.startsWith("-") || a.includes("="));
  if (cmd.name === "command" || cmd.name === "type") return cmd.args.some((a) => a === "-v" || a === "-V");
  if (cmd.name === "time" || cmd.name === "nice" || cmd.name === "exec") return cmd.args.length === 0;
  return false;
}

function runsInterpreterCode(cmd: Command): boolean {
  if (cmd.redirects.some((r) => r.op === "<" || r.op === "<<<" || r.op.startsWith("<<"))) return true;
  if (cmd.heredocs.length) return true;
  if (cmd.args.length === 0) return cmd.pipePos > 0;
  return !onlyInfo(cmd.args);
}

function awkRunsCommands(args: readonly string[]): boolean {
  if (args.some((a) => a === "-f" || a.startsWith("--file"))) return true;
  const program = operands(args)[0] ?? "";
  return /\bsystem\s*\(|\||\bgetline\b|\b(?:print|printf)\b[^;{}]*>|\bclose\s*\(/.test(program);
}

function sedRunsCommands(args: readonly string[]): boolean {
  const scripts = args.filter(
    (a, i) => args[i - 1] === "-e" || (!a.startsWith("-") && i === firstOperand(args)),
  );
  if (args.some((a) => a === "-f" || a.startsWith("--file"))) return true;
  // `e` command, the `e` or `w` flag of s///, and the `w`/`W` commands write files or run them.
  return scripts.some((s) => SED_EXEC_COMMAND.test(s) || SED_EXEC_FLAG.test(s));
}

/** A sed command `e …`, `w file` or `W file`, with an optional address before it. */
const SED_EXEC_COMMAND =
  /(?:^|[;\n{}])\s*(?:(?:\d+|\$|\/[^/]*\/)(?:,(?:\d+|\$|\/[^/]*\/))?)?\s*[ewW](?:\s|$)/;
/** The `e` or `w` flag of s/…/…/. */
const SED_EXEC_FLAG = /\/[gpiImM\d]*[ew][gpiImM\d]*(?:\s|$|[;}])/;

function firstOperand(args: readonly string[]): number {
  return args.findIndex((a) => !a.startsWith("-"));
}
