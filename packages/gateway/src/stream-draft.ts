// A streamed reply (issue 19 §6, web chat): while a turn runs, the text the model writes is shown
// as a draft that grows in place, no more often than the platform's edit limit allows; the newest
// text always wins. The draft is never recorded: the reply itself still goes through the outbox
// exactly once and replaces it. Platforms that cannot stream (IRC) get nothing until the reply.
import type { PlatformAdapter } from "./adapter.js";
import type { ChatAddress } from "./message.js";

export class StreamDraft {
  private text = "";
  private shown = "";
  private lastShown: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly adapter: PlatformAdapter,
    private readonly to: ChatAddress,
    private readonly now: () => number = Date.now,
  ) {}

  /** A status shown until the model's first text ("waiting for the model", "retrying (2/3) …"). */
  private statusLine = "";

  append(delta: string): void {
    this.text += delta;
    this.schedule();
  }

  /** Shows `line` in the draft while the model has written nothing (so the chat never looks dead). */
  status(line: string): void {
    this.statusLine = line;
    if (this.text === "") this.schedule();
  }

  /** The step is being retried: what it wrote so far is void. */
  reset(): void {
    this.text = "";
    this.schedule();
  }

  private schedule(): void {
    if (this.closed || !this.adapter.draft || this.timer) return;
    const wait =
      this.lastShown === undefined
        ? 0
        : Math.max(0, this.lastShown + this.adapter.limits.minEditIntervalMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.show(this.text || this.statusLine);
    }, wait);
    this.timer.unref();
  }

  private show(text: string): void {
    if (this.closed || text === this.shown) return;
    this.shown = text;
    this.lastShown = this.now();
    this.adapter.draft?.(this.to, text);
  }

  /** The turn ended; `replied` false (interrupted, failed) takes the draft away. */
  done(replied: boolean): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!replied && this.shown !== "") this.adapter.draft?.(this.to, "");
    this.closed = true;
  }
}
