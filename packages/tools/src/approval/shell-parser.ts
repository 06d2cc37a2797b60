// The bash parser behind the approval check: mvdan/sh (the parser of shfmt) in its official
// JavaScript build, `mvdan-sh`. Loaded on first use only, so start-up never pays for its 1.5 MB.
//
// Why not `sh-syntax` (mvdan/sh as WASM): its JSON tree keeps only positions for commands
// (`Stmt.Cmd` is `{Pos, End}`), so there is nothing to analyse, and it starts a fresh Go runtime
// for every call (13–800 ms a call here). `mvdan-sh` gives the whole tree and parses in ~1 ms.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";

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
    loaded = makeParser(requireWithCodeCache().syntax);
    return loaded;
  });
  return loading;
}

/**
 * `require("mvdan-sh")` through a V8 code cache: compiling its 1.5 MB is most of the first
 * check's cost, so the compiled code is kept in `node_modules/.cache/iris/` (beside the package,
 * owned by whoever installed it) and reused while the source and the Node version match. Any
 * failure falls back to a plain require. The package is CommonJS and stays external to the bundle.
 */
function requireWithCodeCache(): { syntax: MvdanSyntax } {
  const req = createRequire(import.meta.url);
  try {
    const file = req.resolve("mvdan-sh");
    const source = readFileSync(file, "utf8");
    const id = createHash("sha256").update(source).update(process.version).digest("hex").slice(0, 16);
    const cacheDir = join(dirname(dirname(file)), ".cache", "iris");
    const cacheFile = join(cacheDir, `mvdan-sh-${id}.v8cache`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // No cache yet: written below.
    }
    const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
    const script = new Script(wrapped, { filename: file, ...(cachedData ? { cachedData } : {}) });
    const module = { exports: {} as { syntax: MvdanSyntax } };
    const run = script.runInThisContext() as (...args: unknown[]) => void;
    run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
    if (!cachedData || script.cachedDataRejected) {
      try {
        mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, cacheFile);
      } catch {
        // A read-only install: every process compiles it, as before.
      }
    }
    if (module.exports.syntax) return module.exports;
  } catch {
    // Fall through to the plain require.
  }
  return req("mvdan-sh") as { syntax: MvdanSyntax };
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
