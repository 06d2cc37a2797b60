// The tree the bash reader builds. Node kinds and field names follow mvdan/sh (the parser of
// shfmt, which the approval check used before), so the analysis reads one shape: every node has a
// `type` (CallExpr, BinaryCmd, Word, Lit, …) and its children in named fields.

export interface BashNode {
  readonly type: string;
}

export interface Lit extends BashNode {
  type: "Lit";
  /** As written: backslashes are kept (`r\m` is `r\m`); shell-words.ts applies them. */
  Value: string;
}

export interface Word extends BashNode {
  type: "Word";
  Parts: BashNode[];
}

export interface Redirect extends BashNode {
  type: "Redirect";
  /** An index into REDIRECT_OPS. */
  Op: number;
  /** The descriptor before the operator (`2>`), or `{var}`. */
  N: Lit | null;
  Word: Word | null;
  /** A here-document's body. */
  Hdoc: Word | null;
}

export interface Stmt extends BashNode {
  type: "Stmt";
  Cmd: BashNode | null;
  Negated: boolean;
  Background: boolean;
  Redirs: Redirect[];
}

export interface File extends BashNode {
  type: "File";
  Stmts: Stmt[];
}

export const OPS = { and: 1, or: 2, pipe: 3, pipeAll: 4 } as const;

export const REDIRECT_OPS = [">", ">>", "<", "<<", "<<-", "<<<", "&>", "&>>", ">|", "<>", ">&", "<&"];

export function node<T extends BashNode>(n: T): T {
  return n;
}

export const lit = (Value: string): Lit => ({ type: "Lit", Value });
export const word = (Parts: BashNode[]): Word => ({ type: "Word", Parts });

export function isNode(v: unknown): v is BashNode {
  return typeof v === "object" && v !== null && typeof (v as { type?: unknown }).type === "string";
}

/**
 * Visits `root` and, while `visit` returns true, every node below it, depth first in the order
 * the fields were written. Iterative, so a deep tree cannot overflow the stack.
 */
export function walk(root: BashNode, visit: (n: BashNode) => boolean): void {
  const stack: BashNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop() as BashNode;
    if (!visit(n)) continue;
    const children: BashNode[] = [];
    for (const [key, value] of Object.entries(n)) {
      if (key === "type") continue;
      if (Array.isArray(value)) {
        for (const v of value) if (isNode(v)) children.push(v);
      } else if (isNode(value)) children.push(value);
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as BashNode);
  }
}
