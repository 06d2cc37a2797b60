// The position in the text being read, what is still owed (here-documents whose bodies follow the
// next newline) and the nesting depth. Shared by the word and statement readers.
import type { Redirect, Stmt } from "./nodes.js";

export class BashSyntaxError extends Error {}

/** Nesting deeper than this is refused as unreadable (the check then asks): no stack overflow. */
export const MAX_NESTING = 100;

export interface PendingHeredoc {
  redirect: Redirect;
  delimiter: string;
  stripTabs: boolean;
  quoted: boolean;
}

interface Mark {
  pos: number;
  depth: number;
  owed: PendingHeredoc[];
}

export class Reader {
  pos = 0;
  depth = 0;
  readonly heredocs: PendingHeredoc[] = [];
  /**
   * Where a reading as arithmetic already failed: tried again (from an enclosing retry) it would
   * fail again, and trying both readings at every level of `$(( $(( …` would take exponential time.
   */
  readonly notArithmetic = new Set<number>();
  /** Reads statements until `stop` says the next token ends the list (set by parse.ts). */
  statements!: (r: Reader, stop: StopAt) => Stmt[];
  /** Reads one command with its redirections (set by parse.ts). */
  command!: (r: Reader) => Stmt;
  /** Reads the body text of a here-document that expands (set by words.ts). */
  heredocBody!: (r: Reader, text: string) => Redirect["Hdoc"];

  constructor(readonly src: string) {}

  get eof(): boolean {
    return this.pos >= this.src.length;
  }

  peek(offset = 0): string {
    return this.src[this.pos + offset] ?? "";
  }

  startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  fail(message: string): never {
    const before = this.src.slice(0, this.pos);
    const line = before.split("\n").length;
    const col = this.pos - before.lastIndexOf("\n");
    throw new BashSyntaxError(`${line}:${col}: ${message}`);
  }

  /** Where the reader is, to try one reading and go back for another (`$((` as arithmetic, then not). */
  mark(): Mark {
    return { pos: this.pos, depth: this.depth, owed: [...this.heredocs] };
  }

  /** Back to `at`: the here-documents owed then are owed again (a failed try may have read them). */
  reset(at: Mark): void {
    this.pos = at.pos;
    this.depth = at.depth;
    this.heredocs.splice(0, this.heredocs.length, ...at.owed);
  }

  enter(): void {
    if (++this.depth > MAX_NESTING) this.fail("nested too deeply");
  }

  leave(): void {
    this.depth--;
  }

  /** Spaces, tabs and backslash-newline continuations. */
  skipBlanks(): void {
    for (;;) {
      const c = this.peek();
      if (c === " " || c === "\t") this.pos++;
      else if (c === "\\" && this.peek(1) === "\n") this.pos += 2;
      else return;
    }
  }

  /** Blanks and a comment up to (not including) the end of the line. */
  skipBlanksAndComment(): void {
    this.skipBlanks();
    if (this.peek() === "#") {
      const end = this.src.indexOf("\n", this.pos);
      this.pos = end === -1 ? this.src.length : end;
    }
  }

  /** Consumes one newline, then the bodies of the here-documents opened on its line. */
  newline(): void {
    if (this.peek() !== "\n") this.fail("expected a newline");
    this.pos++;
    const owed = this.heredocs.splice(0);
    for (const h of owed) this.readHeredoc(h);
  }

  /** Blanks, comments and newlines (with their here-documents). */
  skipSpace(): void {
    for (;;) {
      this.skipBlanksAndComment();
      if (this.peek() === "\n") this.newline();
      else return;
    }
  }

  private readHeredoc(h: PendingHeredoc): void {
    const lines: string[] = [];
    for (;;) {
      if (this.eof) break; // bash warns and takes the rest as the body
      const end = this.src.indexOf("\n", this.pos);
      const raw = this.src.slice(this.pos, end === -1 ? undefined : end);
      this.pos = end === -1 ? this.src.length : end + 1;
      const line = h.stripTabs ? raw.replace(/^\t+/, "") : raw;
      if (line === h.delimiter) break;
      lines.push(line);
    }
    const text = lines.length ? `${lines.join("\n")}\n` : "";
    h.redirect.Hdoc = h.quoted
      ? { type: "Word", Parts: [{ type: "Lit", Value: text } as BashLit] }
      : this.heredocBody(this, text);
  }
}

interface BashLit {
  type: "Lit";
  Value: string;
}

/** What ends a statement list: a closing character, or a reserved word at command position. */
export interface StopAt {
  /** `)` closes a subshell or a substitution. */
  paren?: boolean;
  /** Reserved words that end this list (then, fi, done, esac, `}`, …). */
  words?: readonly string[];
  /** `;;`, `;&`, `;;&` end a case item. */
  caseItem?: boolean;
  /** A backquoted or -c text: ends only at its end. */
}

const RESERVED =
  /^(?:if|then|else|elif|fi|do|done|case|esac|while|until|for|select|function|in|time|coproc|\{|\}|!|\[\[)(?=[\s;&|()<>]|$)/;

/** The reserved word at the reader's position, if any (only meaningful at command position). */
export function reservedAt(r: Reader): string | undefined {
  return RESERVED.exec(r.src.slice(r.pos, r.pos + 10))?.[0];
}

/** bash refuses an empty list where a compound command needs one (`while do done`, `{ }`). */
export function filled(r: Reader, stmts: Stmt[], what: string): Stmt[] {
  if (stmts.length === 0) r.fail(`empty ${what}`);
  return stmts;
}

export function expectReserved(r: Reader, w: string): void {
  r.skipSpace();
  if (reservedAt(r) !== w) r.fail(`expected ${w}`);
  r.pos += w.length;
}
