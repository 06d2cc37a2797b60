// A one-line spinner with elapsed time ("⠹ thinking 3.2s") for a terminal; nothing elsewhere.
// The timer is unref'd so it never keeps the process alive.
interface Out {
  write(s: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private frame = 0;
  private label = "";

  constructor(
    private readonly out: Out,
    private readonly render: (frame: string, label: string, secs: string) => string,
  ) {}

  get active(): boolean {
    return this.timer !== undefined;
  }

  start(label: string, startedAt = Date.now()): void {
    if (!this.out.isTTY) return;
    this.label = label;
    if (this.timer) return;
    this.startedAt = startedAt;
    this.draw();
    this.timer = setInterval(() => this.draw(), 100);
    this.timer.unref();
  }

  relabel(label: string): void {
    this.label = label;
  }

  /** Clears the spinner's line; the cursor is left at its start. */
  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.out.write("\r\u001b[K");
  }

  private draw(): void {
    this.frame = (this.frame + 1) % FRAMES.length;
    const secs = ((Date.now() - this.startedAt) / 1000).toFixed(1);
    this.out.write(`\r\u001b[K${this.render(FRAMES[this.frame]!, this.label, secs)}`);
  }
}
