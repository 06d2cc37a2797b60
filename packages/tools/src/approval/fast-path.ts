// The approval check's fast path: most commands of a coding session are plain words joined by
// pipes, `&&`, `||`, `;` and simple redirections. Those are read here without the full bash
// parser (whose first load costs a fresh process well over 100 ms), and judged by exactly the
// same rules. Anything else — `$`, backquotes, backslashes, brackets of any kind, here-documents,
// background jobs, comments, newlines, shell keywords, assignments, or a program that runs other
// code (shells, interpreters, wrappers, find, ssh, options that take a command) — returns
// undefined, and the full parser reads it.
import {
  CODE_ENV,
  type Concern,
  commandConcerns,
  EVAL_NAMES,
  INTERPRETER_NAMES,
  SHELL_NAMES,
  WRAPPER_NAMES,
} from "./concerns.js";
import type { RawSegment } from "./lexer.js";
import { type Command, changeDirectory, innerScripts, type ParsedCommand, toCommand } from "./parse.js";

const WORD_CHAR = /[A-Za-z0-9_./:@%+=,^*?[\]-]/;
const KEYWORDS = new Set(
  "if then else elif fi for while until do done case esac function select time coproc [[ ]] ! { } in".split(
    " ",
  ),
);
/** Programs whose arguments hold code or other commands: the full parser opens them. */
const OPENED = new Set(["hash", "trap", "su", "ssh", "find", "exec", "command", "builtin"]);
const REDIRECT = /^(?:[12]?>>?|&>>?|<|[12]?>&[12])/;

interface Lexed {
  segments: RawSegment[];
}

/** The line as the shell would split it, or undefined when it is not that simple. */
function lex(raw: string, home: string): Lexed | undefined {
  const segments: RawSegment[] = [];
  let seg: RawSegment = {
    words: [],
    redirects: [],
    pipeline: 0,
    pipePos: 0,
    substitutions: [],
    heredocs: [],
  };
  let pipeline = 0;
  let word: string | undefined;
  let redirect: string | undefined;
  const endWord = (): boolean => {
    if (word === undefined) return true;
    if (redirect !== undefined) {
      seg.redirects.push({ op: redirect, target: word });
      redirect = undefined;
    } else seg.words.push(word);
    word = undefined;
    return true;
  };
  const endSegment = (piped: boolean): boolean => {
    endWord();
    if (redirect !== undefined || (seg.words.length === 0 && seg.redirects.length === 0)) return false;
    segments.push(seg);
    if (!piped) pipeline++;
    seg = {
      words: [],
      redirects: [],
      pipeline,
      pipePos: piped ? seg.pipePos + 1 : 0,
      substitutions: [],
      heredocs: [],
    };
    return true;
  };
  let i = 0;
  while (i < raw.length) {
    const c = raw[i] as string;
    if (c === " " || c === "\t") {
      endWord();
      i++;
    } else if (c === "'") {
      const end = raw.indexOf("'", i + 1);
      if (end === -1) return undefined;
      word = (word ?? "") + raw.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      const end = raw.indexOf('"', i + 1);
      if (end === -1) return undefined;
      const body = raw.slice(i + 1, end);
      if (/[$`\\!]/.test(body)) return undefined;
      word = (word ?? "") + body;
      i = end + 1;
    } else if (
      c === "~" &&
      word === undefined &&
      (raw[i + 1] === "/" || raw[i + 1] === undefined || raw[i + 1] === " ")
    ) {
      word = home;
      i++;
    } else if (c === "|" || c === ";" || (c === "&" && raw[i + 1] === "&")) {
      const two = raw.slice(i, i + 2);
      const piped = c === "|" && two !== "||";
      if (raw[i + 1] === "&" && c === "|") return undefined;
      if (!endSegment(piped)) return undefined;
      i += two === "||" || two === "&&" ? 2 : 1;
    } else if (
      (c === ">" || c === "<" || c === "&" || ((c === "1" || c === "2") && word === undefined)) &&
      REDIRECT.test(raw.slice(i))
    ) {
      const op = (REDIRECT.exec(raw.slice(i)) as RegExpExecArray)[0];
      if (raw.slice(i + op.length).startsWith("(") || raw.slice(i).startsWith("<<")) return undefined;
      endWord();
      if (redirect !== undefined) return undefined;
      if (/&[12]$/.test(op)) {
        // `2>&1`, `>&2`: a descriptor copy, not a file.
        seg.redirects.push({ op: ">&", target: op.slice(-1) });
      } else redirect = op.replace(/^[12]/, "");
      i += op.length;
    } else if (WORD_CHAR.test(c)) {
      word = (word ?? "") + c;
      i++;
    } else return undefined;
  }
  endWord();
  if (redirect !== undefined) return undefined;
  if (seg.words.length || seg.redirects.length) segments.push(seg);
  else if (/(?:\||&&)\s*$/.test(raw)) return undefined;
  return { segments };
}

/** The parsed line and its concerns, or undefined when the full parser must read it. */
export function fastAnalyse(
  raw: string,
  home: string,
  cwd: string | undefined,
): { parsed: ParsedCommand; concerns: Concern[] } | undefined {
  if (raw.length > 2000) return undefined;
  const lexed = lex(raw, home);
  if (!lexed || lexed.segments.length === 0) return undefined;
  const commands: Command[] = [];
  const concerns: Concern[] = [];
  let where = cwd;
  for (const seg of lexed.segments) {
    const first = seg.words[0] ?? "";
    if (KEYWORDS.has(first) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(first) || /[*?[\]/]/.test(first))
      return undefined;
    const cmd = toCommand(seg, []);
    if (cmd.via.length || cmd.name === "") return undefined;
    const n = cmd.name;
    if (
      SHELL_NAMES.has(n) ||
      INTERPRETER_NAMES.has(n) ||
      WRAPPER_NAMES.has(n) ||
      EVAL_NAMES.has(n) ||
      OPENED.has(n)
    )
      return undefined;
    if (innerScripts(cmd).length) return undefined;
    if (CODE_ENV.test(n)) return undefined;
    cmd.substitutedNames = [];
    if (where !== undefined) cmd.cwd = where;
    commands.push(cmd);
    concerns.push(...commandConcerns(cmd, n));
    if (n === "cd")
      where = changeDirectory(
        where,
        cmd.args.find((a) => !a.startsWith("-")),
        home,
      );
  }
  return { parsed: { raw, texts: [raw], commands, floods: [] }, concerns };
}
