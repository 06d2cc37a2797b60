// The parsed tree → every simple command the line can run, flat (inside pipes, `&&`, `;`,
// subshells, blocks, loops, functions, `$(…)`, `<(…)`, `sh -c` strings, here-documents fed to a
// shell, `find -exec`), plus what could not be resolved statically (`concerns`, asked about).

import { CODE_ENV, type Concern, commandConcerns, concern, READ_ONLY } from "./concerns.js";
import { findFloods } from "./flood.js";
import type { Redirect } from "./lexer.js";
import {
  type Command,
  changeDirectory,
  findExecCommands,
  innerScripts,
  type ParsedCommand,
  SHELLS,
  toCommand,
} from "./parse.js";
import type { ShellParser, ShLit, ShNode, ShRedirect, ShStmt, ShWord } from "./shell-parser.js";
import { type WordValue, wordValue } from "./shell-words.js";

export interface ShellAnalysis {
  parsed: ParsedCommand;
  concerns: Concern[];
}

const MAX_DEPTH = 8;
const WRITE_OPS = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);

interface Walk {
  parser: ShellParser;
  home: string;
  out: Command[];
  texts: string[];
  concerns: Concern[];
  floods: string[];
  functions: Set<string>;
  /** `hash -p PATH NAME`: NAME runs PATH from then on. */
  hashed: Map<string, string>;
  via: string[];
  depth: number;
  cwd: { value: string | undefined };
  pipeline: { next: number };
}

export function analyseShell(parser: ShellParser, raw: string, home: string, cwd?: string): ShellAnalysis {
  const walk: Walk = {
    parser,
    home,
    out: [],
    texts: [],
    concerns: [],
    floods: [],
    functions: new Set(),
    hashed: new Map(),
    via: [],
    depth: 0,
    cwd: { value: cwd },
    pipeline: { next: 0 },
  };
  analyseText(raw, walk);
  return {
    parsed: {
      raw,
      commands: walk.out,
      texts: walk.texts,
      floods: walk.floods,
      functions: [...walk.functions],
    },
    concerns: dedupe(walk.concerns),
  };
}

function analyseText(text: string, walk: Walk): void {
  walk.texts.push(text);
  const r = walk.parser.parse(text);
  if (!r.ok) {
    walk.concerns.push(concern("parse_error", r.error));
    return;
  }
  walk.floods.push(...findFloods(walk.parser, r.file));
  walk.parser.walk(r.file, (n) => {
    const name =
      walk.parser.type(n) === "FuncDecl" ? (n as unknown as { Name: ShLit | null }).Name?.Value : undefined;
    if (name) walk.functions.add(name);
    return true;
  });
  for (const stmt of r.file.Stmts) visitStmt(stmt, walk, undefined);
}

function dedupe(concerns: Concern[]): Concern[] {
  const seen = new Set<string>();
  return concerns.filter((c) => {
    if (seen.has(c.description)) return false;
    seen.add(c.description);
    return true;
  });
}

interface PipeSlot {
  pipeline: number;
  pos: number;
}

function visitStmt(stmt: ShStmt, walk: Walk, pipe: PipeSlot | undefined): void {
  const { parser } = walk;
  const cmd = stmt.Cmd;
  // `> file` alone: a statement with redirects and no command.
  if (!cmd) {
    visitCall(stmt, { Assigns: [], Args: [] }, walk, pipe);
    return;
  }
  const type = parser.type(cmd);
  if (type === "CallExpr") {
    visitCall(stmt, cmd as unknown as CallExpr, walk, pipe);
    return;
  }
  if (type === "BinaryCmd") {
    const bin = cmd as unknown as { Op: number; X: ShStmt; Y: ShStmt };
    if (bin.Op === parser.ops.pipe || bin.Op === parser.ops.pipeAll) {
      const number = walk.pipeline.next++;
      pipeElements(bin, parser).forEach((s, pos) => {
        visitStmt(s, walk, { pipeline: number, pos });
      });
      return;
    }
    visitStmt(bin.X, walk, undefined);
    visitStmt(bin.Y, walk, undefined);
    return;
  }
  if (type === "DeclClause") checkAssigns((cmd as unknown as { Args: Assign[] }).Args ?? [], walk);
  // Compound commands (if, while, for, case, subshells, blocks, functions, [[ ]], (( )), time…):
  // their statements and substitutions are found wherever they sit.
  visitWords(cmd, walk);
  // Their redirections are the statement's own (`{ echo x; } > ~/.bashrc`, `while read l; do …;
  // done < ~/.iris/.env`, `(…) > /dev/sda`): judged as a command of redirections alone, like
  // `> file`, so a write or a read through a block is judged as one through a plain command.
  if (stmt.Redirs.length > 0) visitCall(stmt, { Assigns: [], Args: [] }, walk, pipe);
}

function pipeElements(bin: { Op: number; X: ShStmt; Y: ShStmt }, parser: ShellParser): ShStmt[] {
  const isPipe = (s: ShStmt): boolean => {
    const c = s.Cmd as unknown as { Op?: number } | null;
    return parser.type(c) === "BinaryCmd" && (c?.Op === parser.ops.pipe || c?.Op === parser.ops.pipeAll);
  };
  const flat = (s: ShStmt): ShStmt[] =>
    isPipe(s) && s.Redirs.length === 0
      ? pipeElements(s.Cmd as unknown as { Op: number; X: ShStmt; Y: ShStmt }, parser)
      : [s];
  return [...flat(bin.X), ...flat(bin.Y)];
}

/** Finds statements, assignments and substitutions anywhere below `node`. */
function visitWords(node: ShNode, walk: Walk): void {
  const { parser } = walk;
  // The walk visits `node` itself first; its JS wrapper is a new object, so count, not compare.
  let root = true;
  parser.walk(node, (n) => {
    if (!n) return true;
    if (root) {
      root = false;
      return true;
    }
    const type = parser.type(n);
    if (type === "Stmt") {
      visitStmt(n as ShStmt, walk, undefined);
      return false;
    }
    if (type === "CmdSubst" || type === "ProcSubst") {
      visitNested((n as unknown as { Stmts: ShStmt[] }).Stmts, walk);
      return false;
    }
    if (type === "Assign") checkAssigns([n as unknown as Assign], walk);
    return true;
  });
}

function visitNested(stmts: ShStmt[], walk: Walk): string[] {
  if (walk.depth >= MAX_DEPTH) {
    walk.concerns.push(concern("parse_error", "nested too deeply"));
    return [];
  }
  const before = walk.out.length;
  const inner: Walk = {
    ...walk,
    via: [...walk.via, "substitution"],
    depth: walk.depth + 1,
    cwd: { value: walk.cwd.value },
  };
  for (const s of stmts) visitStmt(s, inner, undefined);
  return walk.out.slice(before).map((c) => c.name);
}

interface Assign {
  Name: ShLit | null;
  Value: ShWord | null;
  Naked?: boolean;
}

interface CallExpr {
  Assigns: Assign[];
  Args: ShWord[];
}

/** Variables whose value is a command line a program runs (`GIT_EDITOR='…' git commit`). */
const COMMAND_VARIABLE =
  /^(?:GIT_(?:EDITOR|PAGER|SSH_COMMAND|SSH|ASKPASS|EXTERNAL_DIFF|SEQUENCE_EDITOR|PROXY_COMMAND)|EDITOR|VISUAL|PAGER|MANPAGER|BROWSER|PROMPT_COMMAND|SUDO_ASKPASS|SSH_ASKPASS|LESSOPEN|LESSCLOSE)$/;

function checkAssigns(assigns: readonly Assign[], walk: Walk): void {
  for (const a of assigns) {
    const name = a.Name?.Value ?? "";
    if (CODE_ENV.test(name)) walk.concerns.push(concern("code_env", name));
    const value = wordValue(walk.parser, a.Value, walk.home);
    if (/\$\(|`/.test(value.text) && !value.dynamic) walk.concerns.push(concern("deferred_code", name));
    // The command it holds runs later as if typed: judged now, so a hard block stays one.
    if (COMMAND_VARIABLE.test(name) && !value.dynamic && value.text.trim() !== "" && walk.depth < MAX_DEPTH)
      analyseText(value.text.replace(/^\|/, ""), {
        ...walk,
        via: [...walk.via, `${name}-command`],
        depth: walk.depth + 1,
      });
  }
}

function visitCall(stmt: ShStmt, call: CallExpr, walk: Walk, pipe: PipeSlot | undefined): void {
  const { parser, home } = walk;
  checkAssigns(call.Assigns ?? [], walk);
  const substituted: string[] = [];
  for (const node of [...(call.Assigns ?? []), ...call.Args, ...stmt.Redirs] as ShNode[]) {
    parser.walk(node, (n) => {
      if (!n) return true;
      const type = parser.type(n);
      if (type === "CmdSubst" || type === "ProcSubst") {
        substituted.push(...visitNested((n as unknown as { Stmts: ShStmt[] }).Stmts, walk));
        return false;
      }
      return true;
    });
  }
  const redirects: Redirect[] = [];
  const heredocs: string[] = [];
  for (const r of stmt.Redirs) readRedirect(r, walk, redirects, heredocs);
  const words = call.Args.map((w) => wordValue(parser, w, home));
  if (words.length === 0 && redirects.length === 0 && heredocs.length === 0) return;

  const slot = pipe ?? { pipeline: walk.pipeline.next++, pos: 0 };
  const cmd = toCommand(
    {
      words: words.map((w) => w.text),
      redirects,
      pipeline: slot.pipeline,
      pipePos: slot.pos,
      substitutions: [],
      heredocs,
    },
    walk.via,
  );
  cmd.substitutedNames = substituted;
  if (walk.cwd.value !== undefined) cmd.cwd = walk.cwd.value;
  const hashed = walk.hashed.get(cmd.name);
  if (hashed !== undefined) {
    cmd.name = hashed.split("/").pop() ?? hashed;
    cmd.text = [cmd.name, ...cmd.args].join(" ");
  }
  if (cmd.name === "hash") {
    const at = cmd.args.indexOf("-p");
    const [path, name] = [cmd.args[at + 1], cmd.args[at + 2]];
    if (at !== -1 && path !== undefined && name !== undefined) walk.hashed.set(name, path);
  }
  walk.out.push(cmd);

  const first = words.length - cmd.args.length - 1;
  const nameWord = words[first];
  addWordConcerns(cmd, words, first, walk);
  walk.concerns.push(...commandConcerns(cmd, nameWord?.text ?? ""));
  if (cmd.name === "cd" || cmd.name === "pushd") {
    const target = words.slice(first + 1).find((w) => !w.text.startsWith("-"));
    // `pushd` alone or `pushd +N` swaps to a folder of the stack: not known here.
    const unknown = target?.dynamic || (cmd.name === "pushd" && (!target || /^[+-]\d/.test(target.text)));
    walk.cwd.value = unknown ? undefined : changeDirectory(walk.cwd.value, target?.text, home);
  }
  if (cmd.name === "popd") walk.cwd.value = undefined;
  openInnerScripts(cmd, walk);
}

function addWordConcerns(cmd: Command, words: WordValue[], first: number, walk: Walk): void {
  // Words before the program (wrappers and their options) count as the program's name.
  for (let i = 0; i <= first && i < words.length; i++) {
    const w = words[i] as WordValue;
    if (w.dynamic) walk.concerns.push(concern("dynamic_command", w.dynamic));
    else if (w.glob && i === first)
      walk.concerns.push(concern("dynamic_command", "a pattern as the program name"));
  }
  if (first >= 0 && first < words.length && !READ_ONLY.has(cmd.name)) {
    const late = words
      .slice(first + 1)
      .find((w, i, rest) => w.dynamic && !isMessage(cmd.name, rest[i - 1], w));
    if (late?.dynamic) walk.concerns.push(concern("dynamic_argument", `${cmd.name}: ${late.dynamic}`));
  }
}

/**
 * A commit or tag message computed at run time (`git commit -m "$(cat <<'EOF' … EOF)"`) is only
 * text: the commands that compute it are judged on their own.
 */
function isMessage(program: string, before: WordValue | undefined, w: WordValue): boolean {
  if (program !== "git") return false;
  return before?.text === "-m" || before?.text === "--message" || /^(?:-m|--message=)/.test(w.text);
}

function readRedirect(r: ShRedirect, walk: Walk, redirects: Redirect[], heredocs: string[]): void {
  const written = walk.parser.ops.redirects.get(r.Op) ?? "?";
  // `>&FILE` (not a descriptor) writes stdout and stderr to FILE, like `&>FILE`; `<&FILE` reads it.
  const fileTarget =
    (written === ">&" || written === "<&") &&
    !/^(?:\d+-?|-)$/.test(wordValue(walk.parser, r.Word, walk.home).text);
  const op = fileTarget ? (written === ">&" ? "&>" : "<") : written;
  if (op === "<<" || op === "<<-") {
    heredocs.push(wordValue(walk.parser, r.Hdoc, walk.home).text);
    return;
  }
  const target = wordValue(walk.parser, r.Word, walk.home);
  if (op === "<<<") {
    heredocs.push(target.text);
    return;
  }
  if (target.dynamic && WRITE_OPS.has(op)) walk.concerns.push(concern("dynamic_redirect", target.dynamic));
  redirects.push({ op, target: target.text });
}

/** `sh -c '…'`, `eval …`, a here-document fed to a shell, `ssh host cmd`, `su -c`, `find -exec`. */
function openInnerScripts(cmd: Command, walk: Walk): void {
  const scripts = innerScripts(cmd);
  const piped = pipedScript(cmd, walk.out);
  if (piped !== undefined) scripts.push({ text: piped, via: "pipe-sh" });
  if (cmd.name === "su") {
    const at = cmd.args.findIndex((a) => a === "-c" || a === "--command");
    if (at !== -1 && cmd.args[at + 1] !== undefined)
      scripts.push({ text: cmd.args[at + 1] as string, via: "su-c" });
  }
  if (cmd.name === "trap" && cmd.args[0] !== undefined && !cmd.args[0].startsWith("-"))
    scripts.push({ text: cmd.args[0], via: "trap" });
  for (const script of scripts) {
    if (walk.depth >= MAX_DEPTH) {
      walk.concerns.push(concern("parse_error", "nested too deeply"));
      return;
    }
    const remote = script.via === "ssh";
    analyseText(script.text, {
      ...walk,
      via: [...cmd.via, script.via],
      depth: walk.depth + 1,
      cwd: { value: remote ? undefined : walk.cwd.value },
    });
  }
  for (const inner of findExecCommands(cmd)) {
    walk.out.push(inner);
    walk.concerns.push(...commandConcerns(inner, inner.name));
  }
}

/**
 * `echo 'rm -rf /' | sh`, `printf 'x\n' | bash`, `cat <<EOF | sh`: the text a shell reads from a
 * pipe, when the command before it prints only static text. Judged as if typed, so a hard block
 * stays one in every mode.
 */
function pipedScript(cmd: Command, earlier: readonly Command[]): string | undefined {
  if (!SHELLS.has(cmd.name) || cmd.pipePos === 0) return undefined;
  // A script file or -c given: the shell does not run its input as commands.
  if (cmd.args.some((a) => a !== "-s" && a !== "-" && !/^-[eixuvo]+$/.test(a))) return undefined;
  const before = earlier.findLast((c) => c.pipeline === cmd.pipeline && c.pipePos === cmd.pipePos - 1);
  if (!before) return undefined;
  if (before.heredocs.length > 0 && ["cat", "tee", ""].includes(before.name))
    return before.heredocs.join("\n");
  const decode = (t: string) => t.replace(/\\n/g, "\n").replace(/\\t/g, "\t");
  if (before.name === "echo") {
    const words = [...before.args];
    let escapes = false;
    while (/^-[neE]+$/.test(words[0] ?? "")) escapes ||= (words.shift() as string).includes("e");
    const text = words.join(" ");
    return escapes ? decode(text) : text;
  }
  if (before.name === "printf" && before.args[0] !== undefined) return decode(before.args.join(" "));
  return undefined;
}
