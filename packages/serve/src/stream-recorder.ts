// Records a background response's events in serve's stream log as they go out (stream-log.ts):
// one write at a time, each taking every event queued since (a busy stream costs a round trip
// per batch, not per delta), and a beat while the turn runs so a reader on another replica can
// tell a quiet turn from a replica that died. A failed write stops the record (readers then see
// the beat stop and end their stream with an error); the live stream goes on.
import type { StreamEvent, StreamLog } from "./state/index.js";

export interface RecorderOptions {
  owner: string;
  id: string;
  expiresAt: number;
  max: number;
  /** How often the running replica beats (ms). */
  beatMs: number;
  onError: (err: Error) => void;
  now?: () => number;
}

export class StreamRecorder {
  private pending: StreamEvent[] = [];
  private writing: Promise<void> = Promise.resolve();
  private scheduled = false;
  private broken = false;
  private readonly beat: NodeJS.Timeout;

  private constructor(
    private readonly log: StreamLog,
    private readonly opts: RecorderOptions,
    private readonly now: () => number,
  ) {
    this.beat = setInterval(() => this.schedule(), opts.beatMs);
    this.beat.unref();
  }

  /** Starts the record (its row written before the first event goes out). */
  static async open(log: StreamLog, opts: RecorderOptions): Promise<StreamRecorder> {
    const now = opts.now ?? Date.now;
    await log.open(opts.owner, opts.id, { expiresAt: opts.expiresAt, max: opts.max, now: now() });
    return new StreamRecorder(log, opts, now);
  }

  push(seq: number, type: string, data: string): void {
    this.pending.push({ seq, type, data });
    this.schedule();
  }

  /** Writes what is left and marks the record done (the last event is in). */
  async finish(): Promise<void> {
    clearInterval(this.beat);
    await this.writing;
    await this.write(true);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.writing = this.writing.then(() => {
      this.scheduled = false;
      return this.write(false);
    });
  }

  private async write(done: boolean): Promise<void> {
    const batch = this.pending.splice(0);
    if (this.broken) return;
    try {
      await this.log.append(this.opts.id, batch, { done, now: this.now() });
    } catch (err) {
      this.broken = true;
      clearInterval(this.beat);
      this.opts.onError(err as Error);
    }
  }
}
