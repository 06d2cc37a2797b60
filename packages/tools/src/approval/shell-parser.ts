// The bash parser behind the approval check: bash/parse.ts, written for it in TypeScript. It is
// part of the bundle, so the first check of a process costs no more than a later one (issue 25:
// mvdan-sh, a 1.5 MB GopherJS build, took 40–400 ms to load). Its tree has mvdan/sh's node kinds
// and field names, which the analysis (shell-analyse.ts, shell-words.ts, flood.ts) reads.
import { type BashNode, OPS, REDIRECT_OPS, walk } from "./bash/nodes.js";
import { parseBash } from "./bash/parse.js";
import { BashSyntaxError } from "./bash/reader.js";

/** The few fields of the nodes the analysis reads. */
export type ShNode = BashNode;
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

export interface ShOps {
  and: number;
  or: number;
  pipe: number;
  pipeAll: number;
  /** Redirect operator number → its text (`>`, `>>`, `<<`, `<<<`, …). */
  redirects: Map<number, string>;
}

export interface ShellParser {
  /** The tree, or why the text is not valid bash. */
  parse(text: string): { ok: true; file: ShFile } | { ok: false; error: string };
  /** The node's kind: CallExpr, Word, Lit, BinaryCmd, … ("" for none). */
  type(node: unknown): string;
  walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
  ops: ShOps;
}

const parser: ShellParser = {
  parse(text) {
    try {
      return { ok: true, file: parseBash(text) as unknown as ShFile };
    } catch (e) {
      if (e instanceof BashSyntaxError) return { ok: false, error: e.message };
      throw e;
    }
  },
  type: (node) => (node && typeof node === "object" ? String((node as { type?: unknown }).type ?? "") : ""),
  walk: (node, visit) => walk(node, visit),
  ops: { ...OPS, redirects: new Map(REDIRECT_OPS.map((op, i) => [i, op])) },
};

export function shellParser(): ShellParser {
  return parser;
}
