// The status line that stays on screen (SPEC E1): the terminal's last row holds model, context
// used and left, tokens and cost of the session, while the chat scrolls in the rows above it (a
// scroll region, DECSTBM). It is drawn with the cursor saved and restored, so readline and the
// input-line guard never see it; redrawn when the chat is idle again and when the window changes
// size, and given back (the whole screen scrolls again) when the chat ends.
import { truncateToWidth } from "./width.js";

interface Terminal {
  write(s: string): unknown;
  isTTY?: boolean;
  rows?: number;
  columns?: number;
  on(event: "resize", listener: () => void): unknown;
  off(event: "resize", listener: () => void): unknown;
}

const SAVE = "\u001b7";
const RESTORE = "\u001b8";

export class StatusBar {
  private rows = 0;
  /** Draws asked for so far: a line read from the store is written only if no newer one was asked. */
  private draws = 0;
  private readonly onResize = () => void this.layout();

  constructor(
    private readonly term: Terminal,
    private readonly text: () => string | Promise<string>,
    private readonly paint: (s: string) => string,
  ) {}

  /** Reserves the last row (a terminal of fewer than 6 rows keeps all its rows for the chat);
   * resolves once the line is drawn. */
  async start(): Promise<void> {
    if (!this.term.isTTY || (this.term.rows ?? 0) < 6) return;
    // A line free at the bottom first: the cursor must sit inside the region that scrolls.
    this.term.write("\n\u001b[1A");
    this.term.on("resize", this.onResize);
    await this.layout();
  }

  /** Draws the line again with what it says now; resolves once it is on screen (or given up). */
  async draw(): Promise<void> {
    if (!this.rows) return;
    const draw = ++this.draws;
    const write = (text: string) => {
      if (!this.rows || draw !== this.draws) return;
      const line = truncateToWidth(text, Math.max(10, (this.term.columns ?? 80) - 1));
      this.term.write(`${SAVE}\u001b[${this.rows};1H\u001b[2K${this.paint(line)}${RESTORE}`);
    };
    try {
      write(await this.text());
    } catch {
      // A store that cannot be read keeps the line as it was.
    }
  }

  stop(): void {
    if (!this.rows) return;
    this.term.off("resize", this.onResize);
    this.term.write(`${SAVE}\u001b[r\u001b[${this.rows};1H\u001b[2K${RESTORE}`);
    this.rows = 0;
  }

  private async layout(): Promise<void> {
    const rows = this.term.rows ?? 0;
    if (rows < 6) {
      this.stop();
      return;
    }
    if (this.rows && this.rows !== rows) this.term.write(`${SAVE}\u001b[${this.rows};1H\u001b[2K${RESTORE}`);
    this.rows = rows;
    this.term.write(`${SAVE}\u001b[1;${rows - 1}r${RESTORE}`);
    await this.draw();
  }
}
