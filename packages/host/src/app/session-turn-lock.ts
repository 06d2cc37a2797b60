// One turn at a time per session, across processes and front ends (SPEC D1, H1): Session.send
// takes the session's turn here. Inside one process a set of the sessions with a turn running
// answers at once (two Session objects of one process share a pid, which the store's lease
// treats as one holder); across processes the store's lease decides. A refusal is a
// SessionBusyError, which each front end turns into its own protocol's "busy" answer.

import type { Store } from "@iris/store";
import { acquireTurnLease } from "./session-lease.js";

/** How long a refused writer is told to wait before it tries again (HTTP Retry-After). */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/** Another turn runs in this session now (this process or another one). */
export class SessionBusyError extends Error {
  override readonly name = "SessionBusyError";
  constructor(
    message: string,
    readonly sessionId: string,
    readonly retryAfterSeconds = BUSY_RETRY_AFTER_SECONDS,
  ) {
    super(message);
  }
}

export interface HeldTurn {
  /** Frees the turn (never rejects: a lease the store could not drop expires on its own). */
  release(): Promise<void>;
}

/** The sessions of one process with a turn running now (IrisProcess owns one). */
export class TurnLocks {
  private readonly held = new Set<string>();

  /** Takes the turn of `sessionId` or throws SessionBusyError; release exactly once. */
  async take(store: Store, sessionId: string): Promise<HeldTurn> {
    if (this.held.has(sessionId))
      throw new SessionBusyError(
        `session ${sessionId.slice(-8)} is busy: this process is running a turn in it; wait for it to finish`,
        sessionId,
      );
    // Reserved before the store is asked, so a second take in this process is refused at once.
    this.held.add(sessionId);
    let lease: Awaited<ReturnType<typeof acquireTurnLease>>;
    try {
      lease = await acquireTurnLease(store, sessionId);
    } catch (err) {
      this.held.delete(sessionId);
      throw err;
    }
    if (!lease.ok) {
      this.held.delete(sessionId);
      throw new SessionBusyError(lease.message, sessionId);
    }
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        this.held.delete(sessionId);
        await lease.release();
      },
    };
  }

  /** The refusal a turn in `sessionId` would get now, if any (peeks, keeps nothing). */
  async refusal(store: Store, sessionId: string): Promise<SessionBusyError | undefined> {
    try {
      await (await this.take(store, sessionId)).release();
      return undefined;
    } catch (err) {
      if (err instanceof SessionBusyError) return err;
      throw err;
    }
  }
}
