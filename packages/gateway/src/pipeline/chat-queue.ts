// One rate limiter per chat, shared by every send and edit to it (flood limits: streaming edits
// that ignore `retry_after` earn hour-long bans). Calls to one chat run one at a time, in order,
// no closer than the chat's interval; a call refused with a retry-after holds the whole chat
// until then. A "latest" call (a draft's next text) is coalesced: while one waits, a newer one
// replaces it, so a slow chat shows fewer, newer drafts instead of a backlog.

export interface ChatQueueOptions {
  /** The shortest time between two calls to a chat, in ms. */
  intervalMs(chat: string): number;
  /** The wait a refused call asks for, in ms (e.g. a 429's retry_after), or undefined. */
  retryAfterMs(err: unknown): number | undefined;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

interface Lane {
  tail: Promise<unknown>;
  /** Calls queued or running. */
  pending: number;
  nextAt: number;
  latest: Map<string, () => Promise<void>>;
}

export class ChatQueue {
  private readonly lanes = new Map<string, Lane>();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: ChatQueueOptions) {
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Runs `fn` in the chat's turn; a refusal with a retry-after holds the chat and is rethrown. */
  run<T>(chat: string, fn: () => Promise<T>): Promise<T> {
    const lane = this.lane(chat);
    lane.pending++;
    const result = lane.tail.then(async () => {
      const wait = lane.nextAt - this.now();
      if (wait > 0) await this.sleep(wait);
      try {
        return await fn();
      } catch (err) {
        const retry = this.opts.retryAfterMs(err);
        if (retry !== undefined) lane.nextAt = Math.max(lane.nextAt, this.now() + retry);
        throw err;
      } finally {
        lane.nextAt = Math.max(lane.nextAt, this.now() + this.opts.intervalMs(chat));
        lane.pending--;
      }
    });
    lane.tail = result.catch(() => {});
    return result;
  }

  /** Runs the newest `fn` given for `slot` in the chat's turn; older waiting ones are dropped. */
  latest(chat: string, slot: string, fn: () => Promise<void>): Promise<void> {
    const lane = this.lane(chat);
    const waiting = lane.latest.has(slot);
    lane.latest.set(slot, fn);
    if (waiting) return Promise.resolve();
    return this.run(chat, () => {
      const newest = lane.latest.get(slot);
      lane.latest.delete(slot);
      return newest ? newest() : Promise.resolve();
    });
  }

  /** When the chat takes its next call (ms since the epoch); tests and health. */
  nextAt(chat: string): number {
    return this.lanes.get(chat)?.nextAt ?? 0;
  }

  private lane(chat: string): Lane {
    let lane = this.lanes.get(chat);
    if (!lane) {
      // Chats come and go: idle lanes whose hold is over are dropped (state stays bounded).
      if (this.lanes.size >= 1000)
        for (const [k, l] of this.lanes) if (l.pending === 0 && l.nextAt <= this.now()) this.lanes.delete(k);
      lane = { tail: Promise.resolve(), pending: 0, nextAt: 0, latest: new Map() };
      this.lanes.set(chat, lane);
    }
    return lane;
  }
}
