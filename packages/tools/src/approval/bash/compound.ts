// Bash's compound commands: `{ }`, `( )`, `(( ))`, if, while/until, for/select (both loop
// forms), case, `[[ ]]`, function definitions and coproc. Their bodies are statement lists read
// by parse.ts (through the reader, to keep one direction of imports).
import { type BashNode, type Lit, lit, type Stmt, type Word } from "./nodes.js";
import { expectReserved, filled, type Reader, reservedAt } from "./reader.js";
import { readArith, readRegexWord, readWord, tryArithmetic } from "./words.js";

export const COMPOUND = new Set([
  "Block",
  "Subshell",
  "IfClause",
  "WhileClause",
  "ForClause",
  "CaseClause",
  "TestClause",
  "ArithmCmd",
]);

export function compoundCommand(r: Reader): BashNode | undefined {
  // `( (a) )` is nested subshells.
  const arith = r.startsWith("((") ? tryArithmetic(r, 2) : undefined;
  if (arith) return { type: "ArithmCmd", X: arith } as BashNode;
  if (r.peek() === "(") {
    r.pos++;
    const stmts = filled(r, r.statements(r, { paren: true }), "subshell");
    if (r.peek() !== ")") r.fail("unclosed (");
    r.pos++;
    return { type: "Subshell", Stmts: stmts } as BashNode;
  }
  const kw = reservedAt(r);
  if (kw === undefined || kw === "!" || kw === "time") return undefined;
  r.pos += kw.length;
  switch (kw) {
    case "{": {
      const stmts = filled(r, r.statements(r, { words: ["}"] }), "block");
      expectReserved(r, "}");
      return { type: "Block", Stmts: stmts } as BashNode;
    }
    case "if":
      return ifClause(r);
    case "while":
    case "until": {
      const cond = filled(r, r.statements(r, { words: ["do"] }), `${kw} condition`);
      expectReserved(r, "do");
      const body = filled(r, r.statements(r, { words: ["done"] }), `${kw} body`);
      expectReserved(r, "done");
      return { type: "WhileClause", Until: kw === "until", Cond: cond, Do: body } as BashNode;
    }
    case "for":
    case "select":
      return forClause(r, kw === "select");
    case "case":
      return caseClause(r);
    case "[[":
      return testClause(r);
    case "function": {
      r.skipBlanks();
      const name = readWord(r);
      r.skipBlanks();
      if (r.startsWith("(")) {
        r.pos++;
        r.skipBlanks();
        if (r.peek() !== ")") r.fail("expected ) after (");
        r.pos++;
      }
      return funcDecl(r, name);
    }
    case "coproc": {
      r.skipBlanks();
      const named = /^([A-Za-z_][A-Za-z0-9_]*)[ \t]+(?=[{(]|(?:if|while|until|for|case|select)\s|\[\[)/.exec(
        r.src.slice(r.pos, r.pos + 200),
      );
      if (named) r.pos += named[0].length;
      return {
        type: "CoprocClause",
        Name: named ? lit(named[1] as string) : null,
        Stmt: r.command(r),
      } as BashNode;
    }
    default:
      return r.fail(`unexpected ${kw}`);
  }
}

export function funcDecl(r: Reader, name: Word): BashNode {
  const only = name.Parts.length === 1 ? (name.Parts[0] as { type: string; Value?: string }) : undefined;
  if (only?.type !== "Lit" || !only.Value) r.fail("a function name must be a plain word");
  r.skipSpace();
  const body = r.command(r);
  if (!COMPOUND.has(body.Cmd?.type ?? "")) r.fail("a function body must be a compound command");
  return { type: "FuncDecl", Name: lit(only.Value), Body: body } as BashNode;
}

function ifClause(r: Reader): BashNode {
  const cond = filled(r, r.statements(r, { words: ["then"] }), "if condition");
  expectReserved(r, "then");
  const then = filled(r, r.statements(r, { words: ["elif", "else", "fi"] }), "then part");
  r.skipSpace();
  const next = reservedAt(r);
  let otherwise: BashNode | null = null;
  if (next === "elif") {
    r.pos += 4;
    return { type: "IfClause", Cond: cond, Then: then, Else: ifClause(r) } as BashNode;
  }
  if (next === "else") {
    r.pos += 4;
    otherwise = {
      type: "IfClause",
      Cond: [],
      Then: filled(r, r.statements(r, { words: ["fi"] }), "else part"),
      Else: null,
    } as BashNode;
  }
  expectReserved(r, "fi");
  return { type: "IfClause", Cond: cond, Then: then, Else: otherwise } as BashNode;
}

function forClause(r: Reader, select: boolean): BashNode {
  r.skipBlanks();
  let loop: BashNode;
  if (!select && r.startsWith("((")) {
    r.pos += 2;
    const [init, cond, post] = readArith(r, "))", true);
    loop = {
      type: "CStyleLoop",
      Init: unlessBlank(init),
      Cond: unlessBlank(cond),
      Post: unlessBlank(post),
    } as BashNode;
    r.skipBlanks();
    if (r.peek() === ";") r.pos++;
  } else {
    const name = readWord(r);
    const items: Word[] = [];
    r.skipSpace();
    let listed = false;
    if (reservedAt(r) === "in") {
      listed = true;
      r.pos += 2;
      for (;;) {
        r.skipBlanks();
        if (r.eof || r.peek() === ";" || r.peek() === "\n" || r.peek() === "#") break;
        items.push(readWord(r));
      }
      r.skipBlanksAndComment();
      if (r.peek() === ";") r.pos++;
      else if (r.peek() === "\n") r.newline();
      else r.fail("expected ; or a newline after the for list");
    } else if (r.peek() === ";") r.pos++;
    loop = { type: "WordIter", Name: name, Listed: listed, Items: items } as BashNode;
  }
  r.skipSpace();
  let body: Stmt[];
  if (reservedAt(r) === "{") {
    r.pos++;
    body = filled(r, r.statements(r, { words: ["}"] }), "for body");
    expectReserved(r, "}");
  } else {
    expectReserved(r, "do");
    body = filled(r, r.statements(r, { words: ["done"] }), "for body");
    expectReserved(r, "done");
  }
  return { type: "ForClause", Select: select, Loop: loop, Do: body } as BashNode;
}

/** `for ((;;))`: an empty part is no expression (a missing condition never ends the loop). */
function unlessBlank(w: Word | undefined): Word | null {
  if (!w) return null;
  const blank = w.Parts.every((p) => p.type === "Lit" && /^\s*$/.test((p as Lit).Value));
  return blank ? null : w;
}

function caseClause(r: Reader): BashNode {
  r.skipBlanks();
  const subject = readWord(r);
  expectReserved(r, "in");
  const items: BashNode[] = [];
  for (;;) {
    r.skipSpace();
    if (reservedAt(r) === "esac") break;
    if (r.eof) r.fail("expected esac");
    if (r.peek() === "(") r.pos++;
    const patterns: Word[] = [];
    for (;;) {
      r.skipBlanks();
      patterns.push(readWord(r));
      r.skipBlanks();
      if (r.peek() === "|") r.pos++;
      else if (r.peek() === ")") {
        r.pos++;
        break;
      } else r.fail("expected | or ) in a case pattern");
    }
    const body = r.statements(r, { caseItem: true, words: ["esac"] });
    if (r.startsWith(";;&")) r.pos += 3;
    else if (r.startsWith(";;") || r.startsWith(";&")) r.pos += 2;
    items.push({ type: "CaseItem", Patterns: patterns, Stmts: body } as BashNode);
  }
  r.pos += 4;
  return { type: "CaseClause", Word: subject, Items: items } as BashNode;
}

function testClause(r: Reader): BashNode {
  const words: Word[] = [];
  let regexNext = false;
  for (;;) {
    r.skipSpace();
    if (r.eof) r.fail("unclosed [[");
    if (/^\]\](?=[\s;&|)]|$)/.test(r.src.slice(r.pos, r.pos + 3))) {
      r.pos += 2;
      return { type: "TestClause", X: words } as BashNode;
    }
    if (r.startsWith("&&") || r.startsWith("||")) r.pos += 2;
    else if ("()<>!".includes(r.peek())) r.pos++;
    else {
      const w: Word = regexNext ? readRegexWord(r) : readWord(r);
      words.push(w);
      const only = w.Parts[0] as { Value?: string } | undefined;
      regexNext = w.Parts.length === 1 && only?.Value === "=~";
    }
  }
}
