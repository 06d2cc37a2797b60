// A small shell lexer, just enough to read a command the way the shell would before matching it
// against the approval patterns: quotes removed, backslash escapes applied, $HOME / ${HOME} / ~
// expanded, split into simple commands on ; && || | & ( ) and newlines, redirects kept apart,
// and the commands inside $(…), `…`, <(…) and here-documents kept for checking too.
// It is not a full shell parser; where it is unsure it errs towards showing more to the checks.

export interface Redirect {
  op: string;
  target: string;
}

export interface RawSegment {
  words: string[];
  redirects: Redirect[];
  /** Pipelines are numbered; commands joined by `|` share a number. */
  pipeline: number;
  /** Position inside its pipeline (0 = first). */
  pipePos: number;
  /** Commands found in $(…), `…`, <(…) inside this command's words. */
  substitutions: RawSegment[];
  /** The bodies of this command's here-documents. */
  heredocs: string[];
}

const MAX_DEPTH = 8;
// Sticky: they match at lastIndex only, so the lexer never copies the rest of the input.
const REDIRECT_OP = /&>>|&>|>>|>\||>&|>|<<<|<<-|<<|<&|<>|</y;
const HOME_VAR = /\$HOME(?![A-Za-z0-9_])|\$\{HOME\}/y;

export function lexCommand(input: string, home: string, depth = 0): RawSegment[] {
  return new Lexer(input, home, depth).run();
}

class Lexer {
  private i = 0;
  private readonly out: RawSegment[] = [];
  private seg: RawSegment;
  private word: string | undefined;
  private pendingRedirect: string | undefined;
  private pendingHeredocs: { delimiter: string; stripTabs: boolean; seg: RawSegment }[] = [];
  private pipeline = 0;

  constructor(
    private readonly s: string,
    private readonly home: string,
    private readonly depth: number,
  ) {
    this.seg = this.newSegment(0);
  }

  run(): RawSegment[] {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i] as string;
      const next = s[this.i + 1];
      if (c === " " || c === "\t" || c === "\r") {
        this.endWord();
        this.i++;
      } else if (c === "\n") {
        this.endSegment(false);
        this.i++;
        this.readHeredocBodies();
      } else if (c === "\\") {
        if (next === "\n") this.i += 2;
        else {
          this.append(next ?? "");
          this.i += 2;
        }
      } else if (c === "'") {
        const end = s.indexOf("'", this.i + 1);
        const stop = end === -1 ? s.length : end;
        this.append(s.slice(this.i + 1, stop));
        this.i = stop + 1;
      } else if (c === '"') {
        this.readDoubleQuoted();
      } else if (c === "$" || c === "`") {
        this.readDollarOrBacktick();
      } else if ((c === "<" || c === ">") && next === "(") {
        this.readSubstitution(this.i + 1, `${c}(`);
      } else if (c === "~" && this.word === undefined && /^(?:[/\s;&|)]|$)/.test(next ?? "")) {
        this.append(this.home);
        this.i++;
      } else if (c === "#" && this.word === undefined) {
        const nl = s.indexOf("\n", this.i);
        this.i = nl === -1 ? s.length : nl;
      } else if (c === ">" || c === "<" || (c === "&" && next === ">")) {
        this.readRedirectOp();
      } else if (c === ";" || c === "&" || c === "|" || c === "(" || c === ")") {
        this.readControlOp(c, next);
      } else {
        this.append(c);
        this.i++;
      }
    }
    this.endSegment(false);
    return this.out;
  }

  private newSegment(pipePos: number): RawSegment {
    return { words: [], redirects: [], pipeline: this.pipeline, pipePos, substitutions: [], heredocs: [] };
  }

  private append(text: string): void {
    this.word = (this.word ?? "") + text;
  }

  private endWord(): void {
    if (this.word === undefined) return;
    if (this.pendingRedirect !== undefined) {
      const op = this.pendingRedirect;
      this.pendingRedirect = undefined;
      if (op === "<<" || op === "<<-") {
        this.pendingHeredocs.push({ delimiter: this.word, stripTabs: op === "<<-", seg: this.seg });
      } else this.seg.redirects.push({ op, target: this.word });
    } else this.seg.words.push(this.word);
    this.word = undefined;
  }

  private endSegment(piped: boolean): void {
    this.endWord();
    const seg = this.seg;
    if (seg.words.length || seg.redirects.length || seg.substitutions.length || seg.heredocs.length) {
      this.out.push(seg);
    }
    if (!piped) this.pipeline++;
    this.seg = this.newSegment(piped ? seg.pipePos + 1 : 0);
    this.seg.pipeline = this.pipeline;
  }

  private readControlOp(c: string, next: string | undefined): void {
    if (c === "|" && next === "|") {
      this.endSegment(false);
      this.i += 2;
    } else if (c === "|") {
      this.endSegment(true);
      this.i += next === "&" ? 2 : 1;
    } else if (c === "&" && next === "&") {
      this.endSegment(false);
      this.i += 2;
    } else {
      this.endSegment(false);
      this.i += c === ";" && next === ";" ? 2 : 1;
    }
  }

  private readRedirectOp(): void {
    // A word made only of digits right before the operator is a file descriptor, not an argument.
    if (this.word !== undefined && /^\d+$/.test(this.word)) this.word = undefined;
    this.endWord();
    REDIRECT_OP.lastIndex = this.i;
    const m = REDIRECT_OP.exec(this.s);
    const op = m ? m[0] : (this.s[this.i] as string);
    this.i += op.length;
    this.pendingRedirect = op;
  }

  private readDoubleQuoted(): void {
    const s = this.s;
    this.i++;
    this.append("");
    while (this.i < s.length && s[this.i] !== '"') {
      const c = s[this.i] as string;
      const next = s[this.i + 1];
      if (c === "\\" && next !== undefined && '$`"\\\n'.includes(next)) {
        if (next !== "\n") this.append(next);
        this.i += 2;
      } else if (c === "$" || c === "`") this.readDollarOrBacktick();
      else {
        this.append(c);
        this.i++;
      }
    }
    this.i++;
  }

  private readDollarOrBacktick(): void {
    const s = this.s;
    if (s[this.i] === "`") {
      let j = this.i + 1;
      while (j < s.length && s[j] !== "`") j += s[j] === "\\" ? 2 : 1;
      this.substitute(s.slice(this.i + 1, j));
      this.append(s.slice(this.i, j + 1));
      this.i = j + 1;
      return;
    }
    HOME_VAR.lastIndex = this.i;
    const home = HOME_VAR.exec(s);
    if (home) {
      this.append(this.home);
      this.i += home[0].length;
    } else if (s.startsWith("$(", this.i)) {
      this.readSubstitution(this.i + 1, "$(");
    } else {
      this.append("$");
      this.i++;
    }
  }

  /** `open` is the index of the "("; reads to the matching ")" and checks what is inside. */
  private readSubstitution(open: number, prefix: string): void {
    const s = this.s;
    let depth = 0;
    let j = open;
    let quote: string | undefined;
    for (; j < s.length; j++) {
      const c = s[j];
      if (quote) {
        if (c === "\\" && quote === '"') j++;
        else if (c === quote) quote = undefined;
      } else if (c === "'" || c === '"') quote = c;
      else if (c === "\\") j++;
      else if (c === "(") depth++;
      else if (c === ")" && --depth === 0) break;
    }
    const inner = s.slice(open + 1, j);
    this.substitute(inner);
    this.append(`${prefix}${inner})`);
    this.i = j + 1;
  }

  private substitute(inner: string): void {
    if (this.depth >= MAX_DEPTH) return;
    this.seg.substitutions.push(...lexCommand(inner, this.home, this.depth + 1));
  }

  private readHeredocBodies(): void {
    const s = this.s;
    for (const doc of this.pendingHeredocs) {
      const lines: string[] = [];
      while (this.i < s.length) {
        const nl = s.indexOf("\n", this.i);
        const end = nl === -1 ? s.length : nl;
        const line = s.slice(this.i, end);
        this.i = end + 1;
        if ((doc.stripTabs ? line.replace(/^\t+/, "") : line) === doc.delimiter) break;
        lines.push(line);
      }
      doc.seg.heredocs.push(lines.join("\n"));
    }
    this.pendingHeredocs = [];
  }
}
