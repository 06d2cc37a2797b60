// Fork bombs written in another language (T4): `perl -e 'fork while 1'`, `python3 -c 'while 1:
// os.fork()'`, `ruby -e 'loop { fork }'`, `node -e 'for(;;) cp.spawn(…)'`, a script fed by a
// here-document or a pipe. A hard block, like the shell's own: no mode runs it. The code is read
// as text (no parser per language), so the rules are deliberately wide: a real fork inside any
// loop doubles the processes each round (2^n), a fork or spawn in a function that calls itself,
// and a spawn that does not wait inside a loop that cannot end.
import type { ParsedCommand } from "./parse.js";
import { INTERPRETERS } from "./parse.js";

/** Programs whose arguments, here-documents or input are code (besides parse.ts's interpreters). */
const CODE_RUNNERS = new Set([
  ...INTERPRETERS,
  "awk",
  "gawk",
  "mawk",
  "nawk",
  "pwsh",
  "powershell",
  "tclsh",
  "wish",
  "Rscript",
  "julia",
  "elixir",
  "erl",
  "escript",
  "guile",
  "racket",
  "sbcl",
  "clisp",
  "ghc",
  "runghc",
  "scala",
  "kotlin",
  "groovy",
  "jshell",
  "ts-node",
  "tsx",
  "perl5",
  "pypy",
  "pypy3",
  "irb",
  "jruby",
  "luajit",
  "php-cli",
  "zx",
]);

/** A real fork: each call doubles the processes. */
const FORK = /\bfork\b|\bpcntl_fork\b|\bforkpty\b/;
/** Starting a process without waiting for it. */
const SPAWN =
  /\bspawn\w*\b|\bPopen\b|\bpopen\b|\bproc_open\b|\bexecFile\b|\bchild_process\b[\s\S]*\bexec\b|\bmultiprocessing\b|\bProcess\s*\(|\bStart-Process\b|\bStart-Job\b|(?:system|execute|exec|shell_exec|run)\s*\(?\s*["'`][^"'`]*&\s*["'`]/;
/** Any loop construct of the usual languages. */
const ANY_LOOP =
  /\bwhile\b|\bfor\b|\bforeach\b|\buntil\b|\bloop\b|\.times\b|\.each\b|\bmap\b|\bredo\b|\bgoto\b|\biter\s*\(|\bitertools\b|\bsetInterval\b|\brepeat\b|\bdo\s*\{/;
/** A loop that cannot be shown to end. */
const ENDLESS_LOOP =
  /\bwhile\s*[\s(]*(?:1|true|True|TRUE|!0|:|not\s+0|\$true)\b|\bwhile\s*\(\s*\)|\bfor\s*\(\s*;\s*;\s*\)|\bfor\s*\{|\bloop\s*(?:\{|do\b)|\buntil\s*[\s(]*(?:0|false|False|nil)\b|\biter\s*\(\s*int\s*,|\bitertools\.(?:count|repeat|cycle)\b|\bredo\b|\bgoto\b|\bsetInterval\b|\b1\s+while\b|\bwhile\s*\(?\s*\S*(?:fork|spawn)|\brepeat\s*\{|\bBEGIN\s*\{\s*while\b/;
/** Function definitions of the usual languages, for self-calls. */
const FUNCTION_DEF = /\b(?:def|sub|function|fn|proc|func|local\s+function)\s+([A-Za-z_]\w*)/g;

/** String literals of the usual languages: what is only printed is not run. */
const STRINGS = /"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g;

/** Whether `code` reads like a fork bomb or a process flood in some language. */
export function forksWithoutEnd(code: string): boolean {
  // Code that runs a string (`exec('while 1: os.fork()')`, `eval "fork while 1"`) is judged with its strings.
  const bare = /\b(?:exec|eval|compile|Function|instance_eval|class_eval)\s*[("'`]/.test(code)
    ? code.replace(/\\[ntr]/g, "\n")
    : code.replace(STRINGS, '""');
  const forks = FORK.test(bare);
  // A spawn's command is a string (`system("sleep 9 &")`), so spawns are looked for in the whole code.
  if (!forks && !SPAWN.test(code)) return false;
  if (forks && ANY_LOOP.test(bare)) return true;
  if (ENDLESS_LOOP.test(bare)) return true;
  for (const m of bare.matchAll(FUNCTION_DEF)) {
    const name = m[1] as string;
    const body = functionBody(bare, (m.index ?? 0) + m[0].length);
    if (new RegExp(`(?<![\\w$])${name}(?!\\w)`).test(body) && (FORK.test(body) || SPAWN.test(body)))
      return true;
  }
  // A script that starts copies of itself (`fork(__filename)`, `Popen([sys.argv[0]])`).
  return /__filename|__FILE__|sys\.argv\[0\]|\$PROGRAM_NAME/.test(bare);
}

/**
 * The body of a function whose header ends at `from`: up to its matching `}` (brace languages,
 * Perl, Ruby's one-line `{ … }`), else the rest of the header line and the lines indented below
 * it (Python, Ruby's `def … end` read loosely).
 */
function functionBody(code: string, from: number): string {
  const open = code.indexOf("{", from);
  const lineEnd = code.indexOf("\n", from);
  if (open !== -1 && (lineEnd === -1 || open < lineEnd || /^[^\n]*\)\s*$/.test(code.slice(from, open)))) {
    let depth = 0;
    for (let i = open; i < code.length; i++) {
      if (code[i] === "{") depth++;
      else if (code[i] === "}" && --depth === 0) return code.slice(open + 1, i);
    }
    return code.slice(open + 1);
  }
  const lines = code.slice(from).split("\n");
  const body = [lines[0] ?? ""];
  for (const line of lines.slice(1)) {
    if (!/^[ \t]+\S/.test(line)) break;
    body.push(line);
  }
  return body.join("\n").replace(/^[^:]*:/, "");
}

/** `$'…'` text as bash decodes it (the parse leaves it opaque), so `python3 -c $'…\n…'` is read too. */
function ansiC(texts: readonly string[]): string[] {
  const out: string[] = [];
  for (const t of texts)
    for (const m of t.matchAll(/\$'((?:\\.|[^'\\])*)'/g))
      out.push(
        (m[1] as string).replace(/\\([ntr'"\\])/g, (_, c: string) => ({ n: "\n", t: "\t", r: "\r" })[c] ?? c),
      );
  return out;
}

/** The code a line gives to programs that run code (arguments, here-documents, piped text), or undefined. */
export function codeOf(parsed: ParsedCommand): string[] | undefined {
  if (!parsed.commands.some((c) => CODE_RUNNERS.has(c.name) || /^python\d/.test(c.name))) return undefined;
  // `-e'code'` reaches the program as one word: its code follows the option letters.
  const words = parsed.commands.flatMap((c) => [
    ...c.args.flatMap((a) => (/^-[A-Za-z]{1,2}\S/.test(a) ? [a, a.slice(2), a.slice(3)] : [a])),
    ...c.heredocs,
  ]);
  const all = [...words, words.join("\n"), ...ansiC(parsed.texts ?? [parsed.raw])];
  return [...all, ...decodedLiterals(all)];
}

/** Code that decodes base64 (`b64decode`, `atob`, `Buffer.from(…, "base64")`, `unpack("m")`): its literals, decoded. */
function decodedLiterals(code: readonly string[]): string[] {
  const out: string[] = [];
  for (const text of code) {
    if (!/b64decode|atob|base64|decode64|unpack\s*\(\s*["']m/.test(text)) continue;
    for (const m of text.matchAll(/[A-Za-z0-9+/]{12,}={0,2}/g)) {
      const decoded = Buffer.from(m[0], "base64").toString("utf8");
      if (/^[\t\n\r\x20-\x7e]+$/.test(decoded)) out.push(decoded);
    }
  }
  return out.slice(0, 16);
}

/** Whether a program of the line that runs code is given code that forks without end. */
export function codeFloods(parsed: ParsedCommand): boolean {
  return codeOf(parsed)?.some(forksWithoutEnd) ?? false;
}

/** A shell line that starts its own script again in the background or a pipe (`$0 & $0 &`). */
export const SELF_RESTART =
  /(?:^|[;&|({\n]|\bdo|\bthen)\s*["']?\$\{?(?:0|BASH_SOURCE(?:\[0\])?)\}?["']?(?:[ \t][^;&|\n]*)?[ \t]*(?:&(?!&)|\|(?!\|))/;
