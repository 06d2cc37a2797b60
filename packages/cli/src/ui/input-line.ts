// Keeps the line being typed intact while a turn writes to the terminal (issue 15). readline
// echoes keys where the cursor is, which during a turn is the end of the streamed answer: typed
// text landed inside the answer, and the next chunk landed inside the typed text. While a turn
// runs, readline's own writes are not passed on; the input line (prompt and what is typed so far)
// is drawn by this guard on its own row below the output, and every output write first erases
// it, puts the cursor back at the end of the output, writes, and draws it again. Outside a turn
// both streams go straight to the terminal, so readline's idea of the screen stays true: the
// guard draws the input line exactly as readline would (same prompt, same rows).
import type { Interface } from "node:readline";
import { Writable } from "node:stream";
import { displayWidth } from "./width.js";

export interface Terminal {
  write(s: string): unknown;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
  on(event: "resize", listener: () => void): unknown;
  off(event: "resize", listener: () => void): unknown;
}

/**
 * A stream view of the terminal (readline and the chat's output each get one). Writes reach the
 * sink synchronously, in order, as they would on the terminal itself.
 */
export class TerminalView extends Writable {
  constructor(
    private readonly term: Terminal,
    private readonly sink: (s: string) => void,
  ) {
    super({ decodeStrings: false });
  }
  get isTTY(): boolean {
    return this.term.isTTY === true;
  }
  get columns(): number | undefined {
    return this.term.columns;
  }
  get rows(): number | undefined {
    return this.term.rows;
  }
  override _write(chunk: string | Buffer, _encoding: string, done: (err?: Error | null) => void): void {
    this.sink(typeof chunk === "string" ? chunk : chunk.toString("utf8"));
    done();
  }
}

export class InputLineGuard {
  /** Give this to readline as its output. */
  readonly forReadline: TerminalView;
  /** The chat's output (answer, progress, notices, questions). */
  readonly out: TerminalView;
  private rl: Interface | undefined;
  /** The output's unfinished last line (since its last newline or carriage return). */
  private tail = "";
  /** The drawn input line: the cursor's row in it, and whether a newline was put before it. */
  private drawn: { cursorRow: number; broke: boolean } | undefined;
  private readonly onResize = () => this.forReadline.emit("resize");

  /** `split()` says whether a turn owns the screen now (the input line is then kept below it). */
  constructor(
    private readonly term: Terminal,
    private readonly split: () => boolean,
  ) {
    this.forReadline = new TerminalView(term, (s) => this.fromReadline(s));
    this.out = new TerminalView(term, (s) => this.fromOutput(s));
    term.on("resize", this.onResize);
  }

  attach(rl: Interface): void {
    this.rl = rl;
  }

  detach(): void {
    this.term.off("resize", this.onResize);
  }

  /** A line of its own in the output (a notice), even when the answer stopped mid-line. */
  notice(line: string): void {
    this.out.write(`${this.tail === "" ? "" : "\n"}${line}\n`);
  }

  private get columns(): number {
    return Math.max(1, this.term.columns ?? 80);
  }

  private fromReadline(s: string): void {
    if (!this.split() || !this.term.isTTY) {
      this.drawn = undefined; // what is drawn is readline's again
      this.pass(s);
      return;
    }
    // readline has already applied the key to its line: draw that line instead of its echo.
    this.erase();
    this.draw();
  }

  private fromOutput(s: string): void {
    if (!this.split() || !this.term.isTTY) {
      this.drawn = undefined;
      this.pass(s);
      return;
    }
    this.erase();
    this.pass(s);
    this.draw();
  }

  private pass(s: string): void {
    this.term.write(s);
    const nl = s.lastIndexOf("\n");
    const rest = nl >= 0 ? s.slice(nl + 1) : this.tail + s;
    const cr = rest.lastIndexOf("\r");
    this.tail = cr >= 0 ? rest.slice(cr + 1) : rest;
  }

  /** The output's cursor column (0 at a row's start or right after a full row). */
  private tailColumn(): number {
    return displayWidth(this.tail) % this.columns;
  }

  /** Draws prompt and typed text below the output, the cursor where readline has it. */
  private draw(): void {
    const rl = this.rl;
    if (!rl || rl.line.length === 0) return;
    const cols = this.columns;
    const broke = this.tailColumn() > 0;
    const prompt = rl.getPrompt();
    const promptWidth = displayWidth(prompt);
    const end = promptWidth + displayWidth(rl.line);
    const at = promptWidth + displayWidth(rl.line.slice(0, rl.cursor));
    let s = `${broke ? "\n" : ""}${prompt}${rl.line}`;
    // A line that fills its last row exactly: make the terminal move to the next row now.
    if (end > 0 && end % cols === 0) s += " \b";
    const up = Math.floor(end / cols) - Math.floor(at / cols);
    if (up > 0) s += `\u001b[${up}A`;
    s += `\u001b[${(at % cols) + 1}G`;
    this.term.write(s);
    this.drawn = { cursorRow: Math.floor(at / cols), broke };
  }

  /** Removes the drawn input line and puts the cursor back at the end of the output. */
  private erase(): void {
    const d = this.drawn;
    if (!d) return;
    this.drawn = undefined;
    let s = `\r${d.cursorRow > 0 ? `\u001b[${d.cursorRow}A` : ""}\u001b[J`;
    if (d.broke) s += `\u001b[1A\u001b[${this.tailColumn() + 1}G`;
    this.term.write(s);
  }
}
