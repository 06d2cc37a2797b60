// The progress line of `iris batch` on stderr: done/failed/total, items per minute, ETA, tokens
// and cost so far. On a terminal it is redrawn in place (at most 5 times a second); into a file or
// pipe it is a plain line every 10 s, so a log stays readable.
import type { Tally } from "./summary.js";

export interface ProgressOptions {
  out: NodeJS.WritableStream & { isTTY?: boolean };
  total: number;
  /** Items that already had a row when this run began. */
  skipped: number;
  now?: () => number;
}

export class Progress {
  private readonly started: number;
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly opts: ProgressOptions,
    private readonly tally: Tally,
  ) {
    this.started = this.now();
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** The line as it reads now. */
  line(): string {
    const t = this.tally;
    const elapsedMin = (this.now() - this.started) / 60_000;
    const rate = elapsedMin > 0 ? t.ranNow / elapsedMin : 0;
    const left = Math.max(0, this.opts.total - t.rows);
    const eta = rate > 0 ? formatDuration((left / rate) * 60_000) : "?";
    const tokens = formatCount(t.tokensIn + t.tokensOut);
    return (
      `batch ${t.rows}/${this.opts.total} done · ${t.failed} failed · ${rate.toFixed(1)} items/min · ` +
      `ETA ${eta} · ${tokens} tokens · $${t.cost.toFixed(4)}`
    );
  }

  /** Called after each item; draws when it is time to. */
  update(force = false): void {
    const now = this.now();
    const tty = this.opts.out.isTTY === true;
    const every = tty ? 200 : 10_000;
    if (!force && now - this.lastDraw < every) return;
    this.lastDraw = now;
    this.drawn = true;
    this.opts.out.write(tty ? `\r\x1b[K${this.line()}` : `${this.line()}\n`);
  }

  /** Ends the in-place line so the summary starts on a fresh one. */
  finish(): void {
    if (this.opts.out.isTTY === true && this.drawn) this.opts.out.write(`\r\x1b[K${this.line()}\n`);
    else this.update(true);
  }

  /** A message between progress lines (a warning) without garbling the in-place line. */
  note(text: string): void {
    const tty = this.opts.out.isTTY === true;
    this.opts.out.write(tty && this.drawn ? `\r\x1b[K${text}\n` : `${text}\n`);
    if (tty && this.drawn) this.opts.out.write(this.line());
  }
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

function formatCount(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}
