// The bash parser behind the approval check: mvdan/sh (the parser of shfmt) in its official
// JavaScript build, `mvdan-sh`. Loaded on first use only, so start-up never pays for its 1.5 MB.
//
// Why not `sh-syntax` (mvdan/sh as WASM): its JSON tree keeps only positions for commands
// (`Stmt.Cmd` is `{Pos, End}`), so there is nothing to analyse, and it starts a fresh Go runtime
// for every call (13–800 ms a call here). `mvdan-sh` gives the whole tree and parses in ~1 ms.
import { createRequire } from "node:module";

/** The few fields of mvdan/sh's nodes the analysis reads (Go field names, as the JS build has). */
export interface ShNode {
  readonly __shNode?: never;
}
export interface ShFile extends ShNode {
  Stmts: ShStmt[];
}
export interface ShStmt extends ShNode {
  Cmd: ShNode | null;
  Negated: boolean;
  Background: boolean;
  Redirs: ShRedirect[];
}
export interface ShRedirect extends ShNode {
  Op: number;
  N: ShLit | null;
  Word: ShWord | null;
  Hdoc: ShWord | null;
}
export interface ShWord extends ShNode {
  Parts: ShNode[];
}
export interface ShLit extends ShNode {
  Value: string;
}

/** Operators are Go token numbers; they are learnt from samples at load (see `calibrate`). */
export interface ShOps {
  and: number;
  or: number;
  pipe: number;
  pipeAll: number;
  /** Redirect operator number → its text (`>`, `>>`, `<<`, `<<<`, …). */
  redirects: Map<number, string>;
}

export interface ShellParser {
  /** The tree, or the parser's message when the text is not valid bash. */
  parse(text: string): { ok: true; file: ShFile } | { ok: false; error: string };
  /** The node's Go type name: CallExpr, Word, Lit, BinaryCmd, … */
  type(node: unknown): string;
  walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
  ops: ShOps;
}

interface MvdanSyntax {
  NewParser(...options: unknown[]): { Parse(text: string, name: string): ShFile };
  KeepComments(keep: boolean): unknown;
  Variant(v: unknown): unknown;
  LangBash: unknown;
  NodeType(node: unknown): string;
  Walk(node: unknown, visit: (node: ShNode | null) => boolean): void;
}

let loaded: ShellParser | undefined;
let loading: Promise<ShellParser> | undefined;

/** True once the parser is in memory (the bench reports cold and warm separately). */
export function shellParserLoaded(): boolean {
  return loaded !== undefined;
}

/** The parser, loading it on the first call. */
export function loadShellParser(): Promise<ShellParser> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= Promise.resolve().then(() => {
    // `require`: the package is CommonJS (GopherJS output) and must stay external to the bundle.
    const mod = createRequire(import.meta.url)("mvdan-sh") as { syntax: MvdanSyntax };
    loaded = makeParser(mod.syntax);
    return loaded;
  });
  return loading;
}

function makeParser(syntax: MvdanSyntax): ShellParser {
  const parser = syntax.NewParser(syntax.KeepComments(false), syntax.Variant(syntax.LangBash));
  const parse = (text: string): ReturnType<ShellParser["parse"]> => {
    try {
      return { ok: true, file: parser.Parse(text, "") };
    } catch (e) {
      return { ok: false, error: parseErrorText(e) };
    }
  };
  const ops = calibrate(parse, syntax);
  return {
    parse,
    type: (node) => (node ? syntax.NodeType(node) : ""),
    walk: (node, visit) => syntax.Walk(node, visit),
    ops,
  };
}

function parseErrorText(e: unknown): string {
  if (e && typeof e === "object") {
    const o = e as { Text?: unknown; Pos?: { Line?: () => number; Col?: () => number } };
    if (typeof o.Text === "string") return o.Text;
    if (e instanceof Error) return e.message;
  }
  return "not valid bash";
}

/** Learns the token numbers of the operators from tiny samples, so no number is hard-coded. */
function calibrate(parse: ShellParser["parse"], syntax: MvdanSyntax): ShOps {
  const binaryOp = (src: string): number => {
    const r = parse(src);
    const cmd = r.ok ? (r.file.Stmts[0]?.Cmd as { Op?: number } | null) : null;
    if (!r.ok || typeof cmd?.Op !== "number" || syntax.NodeType(cmd) !== "BinaryCmd")
      throw new Error(`shell parser: cannot learn the operator of ${src}`);
    return cmd.Op;
  };
  const redirects = new Map<number, string>();
  for (const op of [">", ">>", "<", "<<", "<<-", "<<<", "&>", "&>>", ">|", "<>", ">&", "<&"]) {
    const src = op.startsWith("<<") && op !== "<<<" ? `x ${op}E\nE\n` : `x ${op} y`;
    const r = parse(src);
    const redir = r.ok ? r.file.Stmts[0]?.Redirs[0] : undefined;
    if (redir) redirects.set(redir.Op, op);
  }
  return {
    and: binaryOp("a && b"),
    or: binaryOp("a || b"),
    pipe: binaryOp("a | b"),
    pipeAll: binaryOp("a |& b"),
    redirects,
  };
}
