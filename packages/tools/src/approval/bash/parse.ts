// Statements as bash reads them: lists (`;`, `&`, newlines), `&&`/`||`, pipes, `!`, `time`,
// simple commands with assignments and redirections, declarations, and the compound commands
// (blocks, subshells, if, while/until, for/select, case, [[ ]], (( )), functions, coproc).
// Bash's grammar, written out for the approval check: whatever it does not know is an error.

import { compoundCommand, funcDecl } from "./compound.js";
import {
  type BashNode,
  type File,
  type Lit,
  lit,
  OPS,
  REDIRECT_OPS,
  type Redirect,
  type Stmt,
  type Word,
} from "./nodes.js";
import { BashSyntaxError, Reader, reservedAt, type StopAt } from "./reader.js";
import { heredocBody, readParts, readWord } from "./words.js";

/** The tree of `src`; throws BashSyntaxError when bash would not read it. */
export function parseBash(src: string): File {
  const r = new Reader(src);
  r.statements = statements;
  r.command = command;
  r.heredocBody = heredocBody;
  try {
    const stmts = statements(r, {});
    if (!r.eof) r.fail(`unexpected ${JSON.stringify(r.peek())}`);
    return { type: "File", Stmts: stmts };
  } catch (e) {
    if (e instanceof RangeError) throw new BashSyntaxError("nested too deeply");
    throw e;
  }
}

function atStop(r: Reader, stop: StopAt): boolean {
  if (stop.paren && r.peek() === ")") return true;
  if (stop.caseItem && (r.startsWith(";;") || r.startsWith(";&"))) return true;
  const w = stop.words ? reservedAt(r) : undefined;
  return w !== undefined && (stop.words?.includes(w) ?? false);
}

function statements(r: Reader, stop: StopAt): Stmt[] {
  const out: Stmt[] = [];
  for (;;) {
    r.skipSpace();
    if (r.eof || atStop(r, stop)) break;
    const s = andOr(r);
    out.push(s);
    r.skipBlanksAndComment();
    const c = r.peek();
    if (c === "&" && r.peek(1) !== "&" && r.peek(1) !== ">") {
      s.Background = true;
      r.pos++;
    } else if (c === ";" && r.peek(1) !== ";" && r.peek(1) !== "&") r.pos++;
    else if (c === "\n") r.newline();
    else if (!r.eof && !atStop(r, stop)) r.fail(`unexpected ${JSON.stringify(c)}`);
  }
  return out;
}

function stmt(cmd: BashNode | null): Stmt {
  return { type: "Stmt", Cmd: cmd, Negated: false, Background: false, Redirs: [] };
}

function andOr(r: Reader): Stmt {
  let left = pipeline(r);
  for (;;) {
    r.skipBlanks();
    const op = r.startsWith("&&") ? OPS.and : r.startsWith("||") ? OPS.or : undefined;
    if (op === undefined) return left;
    r.pos += 2;
    r.skipSpace();
    left = stmt({ type: "BinaryCmd", Op: op, X: left, Y: pipeline(r) } as BashNode);
  }
}

function pipeline(r: Reader): Stmt {
  r.skipBlanks();
  let negated = false;
  while (reservedAt(r) === "!") {
    negated = !negated;
    r.pos++;
    r.skipBlanks();
  }
  if (reservedAt(r) === "time") {
    r.pos += 4;
    r.skipBlanks();
    if (/^-p(?=[\s;&|]|$)/.test(r.src.slice(r.pos, r.pos + 3))) r.pos += 2;
    r.skipBlanks();
    const end = r.eof || /^[\n;&|)]/.test(r.peek());
    const s = stmt({ type: "TimeClause", Stmt: end ? null : pipeline(r) } as BashNode);
    s.Negated = negated;
    return s;
  }
  let left = command(r);
  for (;;) {
    r.skipBlanks();
    if (r.peek() !== "|" || r.peek(1) === "|") break;
    const all = r.peek(1) === "&";
    r.pos += all ? 2 : 1;
    r.skipSpace();
    left = stmt({ type: "BinaryCmd", Op: all ? OPS.pipeAll : OPS.pipe, X: left, Y: command(r) } as BashNode);
  }
  left.Negated = negated;
  return left;
}

const DECLARE = new Set(["declare", "local", "export", "readonly", "typeset", "nameref"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]\n]*\])?\+?=/;
const REDIRECT = /^(\d+|\{[A-Za-z_][A-Za-z0-9_]*\})?(&>>|&>|>>|>\||>&|<<<|<<-|<<|<>|<&|>|<)/;

function command(r: Reader): Stmt {
  r.enter();
  try {
    r.skipBlanks();
    const compound = compoundCommand(r);
    if (!compound) return simpleCommand(r);
    const s = stmt(compound);
    for (;;) {
      r.skipBlanks();
      const redirect = readRedirect(r);
      if (!redirect) break;
      s.Redirs.push(redirect);
    }
    if (!r.eof && !/^[\n;&|)#]/.test(r.peek())) r.fail(`unexpected ${JSON.stringify(r.peek())}`);
    return s;
  } finally {
    r.leave();
  }
}

function simpleCommand(r: Reader): Stmt {
  const s = stmt(null);
  const assigns: BashNode[] = [];
  const args: Word[] = [];
  let decl: string | undefined;
  for (;;) {
    r.skipBlanks();
    const c = r.peek();
    if (r.eof || c === "#" || (/^[\n;&|)]/.test(c) && !/^&>/.test(r.src.slice(r.pos, r.pos + 2)))) break;
    const redirect = readRedirect(r);
    if (redirect) {
      s.Redirs.push(redirect);
      continue;
    }
    if (c === "(") {
      if (args.length === 1 && assigns.length === 0 && s.Redirs.length === 0 && !decl) {
        r.pos++;
        r.skipBlanks();
        if (r.peek() !== ")") r.fail("expected ) after (");
        r.pos++;
        s.Cmd = funcDecl(r, args[0] as Word);
        return s;
      }
      r.fail(`unexpected "("`);
    }
    if ((args.length === 0 || decl) && ASSIGNMENT.test(r.src.slice(r.pos, r.pos + 300))) {
      assigns.push(readAssign(r));
      continue;
    }
    const w = readWord(r);
    const only = w.Parts.length === 1 ? (w.Parts[0] as { type: string; Value?: string }) : undefined;
    if (
      args.length === 0 &&
      !decl &&
      assigns.length === 0 &&
      only?.type === "Lit" &&
      DECLARE.has(only.Value ?? "")
    )
      decl = only.Value;
    else if (decl) assigns.push({ type: "Assign", Naked: true, Name: null, Value: w } as BashNode);
    else args.push(w);
  }
  if (decl) s.Cmd = { type: "DeclClause", Variant: lit(decl), Args: assigns } as BashNode;
  else if (assigns.length || args.length)
    s.Cmd = { type: "CallExpr", Assigns: assigns, Args: args } as BashNode;
  else if (s.Redirs.length === 0)
    r.fail(r.eof ? "unexpected end of text" : `unexpected ${JSON.stringify(r.peek())}`);
  return s;
}

function readAssign(r: Reader): BashNode {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)/.exec(r.src.slice(r.pos, r.pos + 300)) as RegExpExecArray;
  r.pos += (m[1] as string).length;
  const out: Record<string, unknown> = { type: "Assign", Naked: false, Name: lit(m[1] as string) };
  if (r.peek() === "[") {
    r.pos++;
    out.Index = { type: "Word", Parts: readParts(r, { end: (x) => x.peek() === "]" }) };
    r.pos++;
  }
  if (r.peek() === "+") {
    out.Append = true;
    r.pos++;
  }
  r.pos++; // =
  if (r.peek() === "(") {
    r.pos++;
    const elems: Word[] = [];
    for (;;) {
      r.skipSpace();
      if (r.peek() === ")") break;
      if (r.eof) r.fail("unclosed array");
      elems.push(readWord(r));
    }
    r.pos++;
    out.Array = { type: "ArrayExpr", Elems: elems };
    out.Value = null;
  } else {
    const parts = readParts(r, { end: (x) => /^[\s;&|()<>]/.test(x.peek()), procSubst: true, extglob: true });
    out.Value = { type: "Word", Parts: parts };
  }
  return out as unknown as BashNode;
}

/** A redirection at the reader's position, or undefined. */
function readRedirect(r: Reader): Redirect | undefined {
  const m = REDIRECT.exec(r.src.slice(r.pos, r.pos + 80));
  if (!m) return undefined;
  const op = m[2] as string;
  if ((op === "<" || op === ">") && r.src[r.pos + m[0].length] === "(") return undefined; // <(…)
  if (m[1] !== undefined && op.startsWith("&")) return undefined;
  r.pos += m[0].length;
  r.skipBlanks();
  const target = readWord(r);
  const redirect: Redirect = {
    type: "Redirect",
    Op: REDIRECT_OPS.indexOf(op),
    N: m[1] !== undefined ? lit(m[1]) : null,
    Word: target,
    Hdoc: null,
  };
  if (op === "<<" || op === "<<-") {
    const quoted = target.Parts.some((p) => p.type !== "Lit" || (p as Lit).Value.includes("\\"));
    r.heredocs.push({ redirect, delimiter: delimiterText(target), stripTabs: op === "<<-", quoted });
  }
  return redirect;
}

function delimiterText(w: Word): string {
  return w.Parts.map((p) => {
    const n = p as { type: string; Value?: string; Parts?: BashNode[] };
    if (n.type === "Lit") return (n.Value ?? "").replace(/\\(.)/g, "$1");
    if (n.type === "SglQuoted") return n.Value ?? "";
    if (n.type === "DblQuoted")
      return (n.Parts ?? []).map((q) => (q as { Value?: string }).Value ?? "").join("");
    return "";
  }).join("");
}
