// What the chat shows while a turn runs (SPEC E1, E5): the answer streamed and, on a terminal with
// colours, each finished line re-drawn as Markdown; a spinner with elapsed time while the model
// thinks; reasoning collapsed to one line when display.show_reasoning is set (/reasoning shows all);
// a Markdown table drawn again with its columns aligned once its last row is in. It reads the turn
// as host's turn view reports it (turn-feed.ts).
import type { Style } from "./colors.js";
import { MarkdownLines } from "./markdown.js";
import { alignTable, isTableRow } from "./markdown-table.js";
import { Spinner } from "./spinner.js";
import type { TurnFeed } from "./turn-feed.js";
import { displayWidth, truncateToWidth } from "./width.js";

interface Out {
  write(s: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export class ChatScreen {
  /** The raw text of the line being streamed (since the last newline). */
  private partial = "";
  private md: MarkdownLines;
  private readonly spinner: Spinner;
  private reasoning = "";
  private quiet = false;
  /** The user stopped this turn: a reset of its stream is not a retry. */
  private stopped = false;
  /** The rows of the Markdown table on screen, and how many screen rows they took. */
  private table: { rows: string[]; screenRows: number } | undefined;
  /** The whole reasoning of the last model call that had one, for /reasoning. */
  lastReasoning = "";

  constructor(
    private readonly out: Out,
    private readonly style: Style,
    private readonly opts: { showReasoning: boolean },
  ) {
    this.md = new MarkdownLines(style);
    this.spinner = new Spinner(
      out,
      (frame, label, secs) => `${style.cyan(frame)} ${style.dim(`${label} ${secs}s`)}`,
    );
  }

  private get columns(): number {
    return Math.max(20, this.out.columns ?? 100);
  }

  /** Text is on the current line: the next output must start a new one first. */
  get midLine(): boolean {
    return this.partial.length > 0;
  }

  attach(feed: TurnFeed): () => void {
    const off = feed.on((c) => {
      switch (c.kind) {
        case "waiting":
          // A model call starts (a wait after that keeps the spinner as it is).
          if (c.stepId !== undefined && !this.midLine && !this.quiet) this.spinner.start("thinking");
          return;
        case "reasoning":
          this.reasoning += c.delta;
          if (this.spinner.active) this.spinner.relabel("reasoning");
          return;
        case "text":
          this.settle();
          this.write(c.delta);
          return;
        case "tool":
          this.settle(true);
          return;
        case "notice":
          this.settle(true);
          return;
        // The progress writes a subagent's finished call on a line of its own.
        case "subagent":
          if (c.tool?.phase === "after") this.settle(true);
          return;
        case "usage":
        case "call_failed":
          this.settle();
          return;
        // A failed attempt's partial text is already on screen: end its line; the retry's answer
        // is the one that counts.
        case "reset":
          // After Esc or /stop the text stays as it was and the interruption notice ended its
          // line: no retry follows, so no ⟲.
          if (this.midLine && !this.stopped) this.out.write(" ⟲\n");
          this.partial = "";
          this.table = undefined;
          this.md = new MarkdownLines(this.style);
          return;
        default:
          return;
      }
    });
    return () => {
      this.spinner.stop();
      off();
    };
  }

  /** Ends the turn's output: the last line is finished and styled. */
  endTurn(): void {
    this.settle(true);
    this.alignTable(0);
    this.md = new MarkdownLines(this.style);
    this.quiet = false;
    this.stopped = false;
  }

  /** The user interrupted the turn (Esc, Ctrl-C, /stop). */
  interrupted(): void {
    this.stopped = true;
  }

  /**
   * The user is typing during the turn: the spinner would redraw over their line every 100 ms,
   * so it stays off until the turn ends.
   */
  userTyping(): void {
    this.quiet = true;
    this.spinner.stop();
  }

  /** Stops the spinner and shows collapsed reasoning; `endLine` also finishes a streamed line. */
  private settle(endLine = false): void {
    this.spinner.stop();
    if (this.reasoning) {
      this.lastReasoning = this.reasoning;
      if (this.opts.showReasoning) {
        if (this.midLine) this.finishLine();
        const flat = this.reasoning.replace(/\s+/g, " ").trim();
        const head = `▸ reasoning (${this.reasoning.length.toLocaleString("en-US")} chars, /reasoning shows it): `;
        this.out.write(`${this.style.dim(truncateToWidth(head + flat, this.columns - 1))}\n`);
      }
      this.reasoning = "";
    }
    if (endLine && this.midLine) this.finishLine();
    if (endLine) this.alignTable(0);
  }

  /**
   * Draws the finished table on screen again, aligned; `below` screen rows (the line just ended,
   * raw) lie between it and the cursor and are cleared too: the caller draws that line again.
   */
  private alignTable(below: number): boolean {
    const table = this.table;
    this.table = undefined;
    if (!table) return false;
    const aligned = alignTable(table.rows, this.columns - 1, this.style, (t) => this.md.inline(t));
    if (!aligned) return false;
    this.out.write(`\r\u001b[${table.screenRows + below}A\u001b[J${aligned.join("\n")}\n`);
    return true;
  }

  private write(text: string): void {
    const pieces = text.split("\n");
    pieces.forEach((piece, i) => {
      if (piece) {
        this.out.write(piece);
        this.partial += piece;
      }
      if (i < pieces.length - 1) this.finishLine();
    });
  }

  /** Ends the streamed line; with colours, its raw text is replaced by the styled one. */
  private finishLine(): void {
    const raw = this.partial;
    this.partial = "";
    if (!this.style.enabled || !this.out.isTTY) {
      this.out.write("\n");
      this.md.line(raw); // keeps the fence state
      return;
    }
    const rows = Math.max(1, Math.ceil(displayWidth(raw) / this.columns));
    if (!this.md.inCode && isTableRow(raw)) {
      this.table ??= { rows: [], screenRows: 0 };
      this.table.rows.push(raw);
      this.table.screenRows += rows;
      this.out.write(`\r${rows > 1 ? `\u001b[${rows - 1}A` : ""}\u001b[J${this.md.inline(raw)}\n`);
      return;
    }
    // The line after a table: the table is drawn aligned above it (cleared with it).
    const redrawn = this.alignTable(rows - 1);
    const up = redrawn ? 0 : rows - 1;
    this.out.write(`\r${up > 0 ? `\u001b[${up}A` : ""}\u001b[J${this.md.line(raw)}\n`);
  }
}
