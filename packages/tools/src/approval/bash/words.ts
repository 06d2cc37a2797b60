// Words as bash reads them: literal text (backslashes kept as written), single and double quotes,
// `$'…'`, parameter expansions, `$(…)` and backquotes (their commands read as statements),
// arithmetic, process substitution and extended globs. What cannot be read is a syntax error, so
// the check asks instead of guessing.
import { type BashNode, lit, type Word, word } from "./nodes.js";
import { BashSyntaxError, Reader } from "./reader.js";

/** Characters that end an unquoted word. */
const META = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);

export interface PartsOptions {
  /** Ends the parts (checked before each character, outside quotes and expansions). */
  end: (r: Reader) => boolean;
  /** `<(…)` and `>(…)` start a process substitution. */
  procSubst?: boolean;
  /** `@(…)`, `!(…)`, … are extended globs. */
  extglob?: boolean;
}

/** Reads parts until `end` or the text's end. */
export function readParts(r: Reader, o: PartsOptions): BashNode[] {
  const parts: BashNode[] = [];
  let text = "";
  const flush = () => {
    if (text !== "") parts.push(lit(text));
    text = "";
  };
  while (!r.eof) {
    const c = r.peek();
    if (o.procSubst && (c === "<" || c === ">") && r.peek(1) === "(") {
      flush();
      r.pos += 2;
      parts.push({ type: "ProcSubst", Op: c, Stmts: nested(r, "process substitution") } as BashNode);
      continue;
    }
    if (o.extglob && "@!+*?".includes(c) && r.peek(1) === "(") {
      flush();
      r.pos += 2;
      const inner = readParts(r, { end: unmatchedParen(), procSubst: false });
      if (r.peek() !== ")") r.fail("unclosed extended glob");
      r.pos++;
      parts.push({ type: "ExtGlob", Op: c, Pattern: word(inner) } as BashNode);
      continue;
    }
    if (o.end(r)) break;
    if (c === "\\") {
      if (r.peek(1) === "\n") r.pos += 2;
      else {
        text += r.src.slice(r.pos, r.pos + 2);
        r.pos += 2;
      }
    } else if (c === "'") {
      flush();
      const end = r.src.indexOf("'", r.pos + 1);
      if (end === -1) r.fail("unclosed single quote");
      parts.push({ type: "SglQuoted", Dollar: false, Value: r.src.slice(r.pos + 1, end) } as BashNode);
      r.pos = end + 1;
    } else if (c === '"') {
      flush();
      parts.push(doubleQuoted(r, false));
    } else if (c === "$" || c === "`") {
      const part = c === "$" ? dollar(r, false) : backquote(r, false);
      if (part === undefined) {
        text += "$";
        r.pos++;
      } else {
        flush();
        parts.push(part);
      }
    } else {
      text += c;
      r.pos++;
    }
  }
  flush();
  return parts;
}

/** An unquoted word of a command: ends at a blank or an operator character. */
export function readWord(r: Reader): Word {
  const parts = readParts(r, { end: (x) => META.has(x.peek()), procSubst: true, extglob: true });
  if (parts.length === 0) r.fail(r.eof ? "unexpected end of text" : `unexpected ${JSON.stringify(r.peek())}`);
  return word(parts);
}

/** The right side of `=~` in `[[ ]]`: parentheses and `|` belong to the pattern. */
export function readRegexWord(r: Reader): Word {
  const parts = readParts(r, { end: unmatchedParen(true) });
  if (parts.length === 0) r.fail("expected a pattern after =~");
  return word(parts);
}

/** An end test that tracks `(`/`)` and stops at an unmatched `)` (or a blank, with `blanks`). */
function unmatchedParen(blanks = false): (r: Reader) => boolean {
  let depth = 0;
  return (r) => {
    const c = r.peek();
    if (c === "(") depth++;
    else if (c === ")") {
      if (depth === 0) return true;
      depth--;
    } else if (blanks && depth === 0 && (c === " " || c === "\t" || c === "\n")) return true;
    return false;
  };
}

/** `"…"`, or `$"…"` when `dollar`. The reader is at the opening quote. */
function doubleQuoted(r: Reader, dollar: boolean): BashNode {
  r.pos++;
  const parts = quotedParts(r, (x) => x.peek() === '"');
  if (r.peek() !== '"') r.fail("unclosed double quote");
  r.pos++;
  return { type: "DblQuoted", Dollar: dollar, Parts: parts } as BashNode;
}

/** Text with double-quote rules (also an expanding here-document's body): `$`, backquotes, `\`. */
function quotedParts(r: Reader, end: (r: Reader) => boolean): BashNode[] {
  const parts: BashNode[] = [];
  let text = "";
  while (!r.eof && !end(r)) {
    const c = r.peek();
    if (c === "\\") {
      text += r.src.slice(r.pos, r.pos + 2);
      r.pos += 2;
    } else if ((c === "$" && r.peek(1) !== "'" && r.peek(1) !== '"') || c === "`") {
      const part = c === "$" ? dollar(r, true) : backquote(r, true);
      if (part === undefined) {
        text += "$";
        r.pos++;
        continue;
      }
      if (text !== "") parts.push(lit(text));
      text = "";
      parts.push(part);
    } else {
      text += c;
      r.pos++;
    }
  }
  if (text !== "") parts.push(lit(text));
  return parts;
}

/** An expanding here-document's body, read as double-quoted text. */
export function heredocBody(r: Reader, text: string): Word {
  const inner = subReader(r, text);
  return word(quotedParts(inner, () => false));
}

function subReader(r: Reader, text: string): Reader {
  const inner = new Reader(text);
  inner.depth = r.depth + 1;
  inner.statements = r.statements;
  inner.heredocBody = r.heredocBody;
  return inner;
}

/** Statements up to a `)`, which is consumed: `$(…)`, `<(…)`. */
function nested(r: Reader, what: string): BashNode[] {
  r.enter();
  const stmts = r.statements(r, { paren: true });
  if (r.peek() !== ")") r.fail(`unclosed ${what}`);
  r.pos++;
  r.leave();
  return stmts;
}

/** What follows a `$`, or undefined when it is a plain dollar sign. */
function dollar(r: Reader, inQuotes: boolean): BashNode | undefined {
  const next = r.peek(1);
  if (!inQuotes && next === "'") {
    let i = r.pos + 2;
    while (i < r.src.length && r.src[i] !== "'") i += r.src[i] === "\\" ? 2 : 1;
    if (i >= r.src.length) r.fail("unclosed $'");
    const value = r.src.slice(r.pos + 2, i);
    r.pos = i + 1;
    return { type: "SglQuoted", Dollar: true, Value: value } as BashNode;
  }
  if (!inQuotes && next === '"') {
    r.pos++;
    return doubleQuoted(r, true);
  }
  if (next === "(") {
    // `$( (a) )` is a substitution that starts with a subshell.
    const arith = r.peek(2) === "(" ? tryArithmetic(r, 3) : undefined;
    if (arith) return { type: "ArithmExp", X: arith } as BashNode;
    r.pos += 2;
    return { type: "CmdSubst", Stmts: nested(r, "command substitution") } as BashNode;
  }
  if (next === "[") {
    r.pos += 2;
    return { type: "ArithmExp", X: readArith(r, "]")[0] } as BashNode;
  }
  if (next === "{") return paramBraces(r);
  const m = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(r.src.slice(r.pos + 1, r.pos + 200));
  if (!m) return undefined;
  r.pos += 1 + m[0].length;
  return { type: "ParamExp", Short: true, Param: lit(m[0]) } as BashNode;
}

/** `${…}`: the name, then whatever operator and word follow, read up to the matching `}`. */
function paramBraces(r: Reader): BashNode {
  r.pos += 2;
  const out: Record<string, unknown> = { type: "ParamExp", Short: false };
  const rest = r.src.slice(r.pos, r.pos + 200);
  if (/^#[^}]/.test(rest)) {
    out.Length = true;
    r.pos++;
  } else if (/^![^}]/.test(rest)) {
    out.Excl = true;
    r.pos++;
  }
  const m = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])/.exec(r.src.slice(r.pos, r.pos + 200));
  if (!m) r.fail("bad substitution");
  out.Param = lit(m[0]);
  r.pos += m[0].length;
  if (r.peek() === "[") {
    r.pos++;
    out.Index = word(readParts(r, { end: (x) => x.peek() === "]" }));
    if (r.peek() !== "]") r.fail("unclosed [ in a parameter expansion");
    r.pos++;
  }
  if (r.peek() !== "}") {
    r.enter();
    out.Exp = { type: "Expansion", Word: word(readParts(r, { end: (x) => x.peek() === "}" })) };
    r.leave();
  }
  if (r.peek() !== "}") r.fail("unclosed ${");
  r.pos++;
  return out as unknown as BashNode;
}

/** `` `…` ``: the text between the backquotes, unescaped, read as statements of its own. */
function backquote(r: Reader, inQuotes: boolean): BashNode {
  let i = r.pos + 1;
  let text = "";
  while (i < r.src.length && r.src[i] !== "`") {
    const c = r.src[i] as string;
    const next = r.src[i + 1] ?? "";
    if (c === "\\" && ("$`\\".includes(next) || (inQuotes && next === '"'))) {
      text += next;
      i += 2;
    } else if (c === "\\") {
      text += c + next;
      i += 2;
    } else {
      text += c;
      i++;
    }
  }
  if (i >= r.src.length) r.fail("unclosed backquote");
  r.pos = i + 1;
  const inner = subReader(r, text);
  inner.enter();
  const stmts = inner.statements(inner, {});
  if (!inner.eof) inner.fail(`unexpected ${JSON.stringify(inner.peek())}`);
  return { type: "CmdSubst", Backquotes: true, Stmts: stmts } as BashNode;
}

/**
 * `((…))` read as arithmetic from `skip` characters on, or undefined with the reader where it was
 * when it is not arithmetic (a failed place is remembered, see `notArithmetic`).
 */
export function tryArithmetic(r: Reader, skip: number): Word | undefined {
  if (r.notArithmetic.has(r.pos)) return undefined;
  const start = r.mark();
  try {
    r.pos += skip;
    return readArith(r, "))")[0];
  } catch (e) {
    if (!(e instanceof BashSyntaxError)) throw e;
    r.reset(start);
    r.notArithmetic.add(start.pos);
    return undefined;
  }
}

/**
 * Arithmetic up to `closer` (`))` or `]`), with its expansions as parts. `split`: the three parts
 * of `for ((init; cond; post))`, split at top-level semicolons.
 */
export function readArith(r: Reader, closer: string, split = false): Word[] {
  const words: Word[] = [];
  let depth = 0;
  const end = (x: Reader): boolean => {
    const c = x.peek();
    if (depth === 0 && x.startsWith(closer)) return true;
    if (split && depth === 0 && c === ";") return true;
    if (c === "(" || c === "[") depth++;
    else if ((c === ")" || c === "]") && depth > 0) depth--;
    else if (c === ")") x.fail("unbalanced ) in arithmetic");
    return false;
  };
  r.enter();
  for (;;) {
    const parts = readParts(r, { end });
    // bash removes quotes inside arithmetic; the check does not follow it there, it asks.
    if (parts.some((p) => p.type === "SglQuoted" || p.type === "DblQuoted")) r.fail("quotes in arithmetic");
    words.push(word(parts));
    if (r.eof) r.fail("unclosed arithmetic");
    if (r.startsWith(closer) && depth === 0) break;
    r.pos++; // the `;` of a for loop's header
  }
  r.pos += closer.length;
  r.leave();
  return words;
}
