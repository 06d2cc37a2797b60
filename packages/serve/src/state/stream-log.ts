// The events of a response streamed in the background (SPEC E3): every event under its
// sequence number, so a client that lost its connection reconnects to any replica (or to this
// process after a restart) with Last-Event-ID and gets the rest. The replica running the turn
// appends in order and beats while it runs; a reader that sees no beat for a while knows the
// replica is gone. Rows belong to an owner (the API key), expire and are bounded like responses.
// Engines: sqlite-streams.ts, postgres-streams.ts.

/** One recorded event: its sequence number, SSE event name and JSON. */
export interface StreamEvent {
  seq: number;
  type: string;
  data: string;
}

/** Where a recorded stream stands. */
export interface StreamStatus {
  /** The last event is recorded: nothing more will come. */
  done: boolean;
  /** When the replica running it last wrote (events or a beat). */
  aliveAt: number;
}

export interface StreamLog {
  /** Starts the record of `id` (running, alive at `now`); drops expired and the oldest over `max`. */
  open(owner: string, id: string, bounds: { expiresAt: number; max: number; now: number }): Promise<void>;
  /** Adds `events` (rising seqs) in one transaction, marks it alive at `now`, and `done` if so. */
  append(id: string, events: readonly StreamEvent[], state: { done: boolean; now: number }): Promise<void>;
  /** The owner's stream `id`, unless missing or expired at `now`. */
  status(owner: string, id: string, now: number): Promise<StreamStatus | undefined>;
  /** Up to `limit` events after `seq`, in order. */
  after(id: string, seq: number, limit: number): Promise<StreamEvent[]>;
}
