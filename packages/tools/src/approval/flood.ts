// Fork bombs and process floods, found in the parsed tree whatever the names and spacing (T4):
// a function that calls itself twice, in a pipe or in the background; a loop that cannot be
// shown to end and starts background processes (`while true; do sleep 100 & done`).
import type { ShellParser, ShFile, ShLit, ShNode, ShStmt, ShWord } from "./shell-parser.js";

export function findFloods(parser: ShellParser, file: ShFile): string[] {
  const found: string[] = [];
  parser.walk(file, (node) => {
    if (!node) return true;
    const type = parser.type(node);
    if (type === "FuncDecl") {
      const fn = node as unknown as { Name: ShLit | null; Body: ShStmt | null };
      const name = fn.Name?.Value;
      if (name && fn.Body && callsItselfToFork(parser, fn.Body, name))
        found.push(`function ${name} starts copies of itself`);
    } else if ((type === "WhileClause" || type === "ForClause") && unbounded(parser, node, type)) {
      const body = (node as unknown as { Do: ShStmt[] }).Do ?? [];
      if (body.some((s) => startsBackground(parser, s)))
        found.push("an endless loop starts background processes");
    }
    return true;
  });
  return found;
}

function callsItselfToFork(parser: ShellParser, body: ShStmt, name: string): boolean {
  let calls = 0;
  let forked = false;
  const visit = (stmt: ShNode, inBackground: boolean, inPipe: boolean): void => {
    // The walk visits `stmt` itself first; its JS wrapper is a new object, so count, not compare.
    let root = true;
    parser.walk(stmt, (n) => {
      if (!n) return true;
      const type = parser.type(n);
      if (root) {
        root = false;
        return true;
      }
      if (type === "Stmt") {
        const s = n as ShStmt;
        visit(s, inBackground || s.Background, inPipe);
        return false;
      }
      if (type === "BinaryCmd") {
        const bin = n as unknown as { Op: number; X: ShStmt; Y: ShStmt };
        if (bin.Op === parser.ops.pipe || bin.Op === parser.ops.pipeAll) {
          visit(bin.X, inBackground || bin.X.Background, true);
          visit(bin.Y, inBackground || bin.Y.Background, true);
          return false;
        }
      }
      if (type === "CallExpr") {
        const first = (n as unknown as { Args: ShWord[] }).Args[0];
        const lit =
          first?.Parts.length === 1 && parser.type(first.Parts[0]) === "Lit"
            ? (first.Parts[0] as ShLit).Value
            : undefined;
        if (lit === name) {
          calls++;
          if (inBackground || inPipe) forked = true;
        }
      }
      return true;
    });
  };
  visit(body, body.Background, false);
  return forked || calls >= 2;
}

/** A while/until loop (its end depends on run time), a C-style loop without a condition, or a for over run-time or huge lists. */
function unbounded(parser: ShellParser, node: ShNode, type: string): boolean {
  if (type === "WhileClause") return true;
  const loop = (node as unknown as { Loop: ShNode | null }).Loop;
  if (!loop) return true;
  if (parser.type(loop) === "CStyleLoop") {
    // `for ((i=0; i<10; i++))` ends soon; no condition, a variable bound or a big one does not.
    const cond = (loop as unknown as { Cond: ShWord | null }).Cond;
    if (!cond) return true;
    const text = cond.Parts.map((p) => (parser.type(p) === "Lit" ? (p as ShLit).Value : "$")).join("");
    const numbers = [...text.matchAll(/\d+/g)].map((m) => Number(m[0]));
    return text.includes("$") || numbers.length === 0 || numbers.some((n) => n > 256);
  }
  const items = (loop as unknown as { Items: ShWord[] | null }).Items ?? [];
  return items.some((w) =>
    w.Parts.some((p) => {
      const t = parser.type(p);
      if (t === "CmdSubst") return true;
      if (t !== "Lit") return false;
      const m = /\{(-?\d+)\.\.(-?\d+)/.exec((p as ShLit).Value);
      return m !== null && Math.abs(Number(m[2]) - Number(m[1])) > 256;
    }),
  );
}

function startsBackground(parser: ShellParser, stmt: ShStmt): boolean {
  let found = stmt.Background;
  if (!found)
    parser.walk(stmt, (n) => {
      if (found || !n) return false;
      if (parser.type(n) === "Stmt" && (n as ShStmt).Background) found = true;
      return !found;
    });
  return found;
}
