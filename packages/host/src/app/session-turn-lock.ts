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
  release(): void;
}

/** The sessions of one process with a turn running now (IrisProcess owns one). */
export class TurnLocks {
  private readonly held = new Set<string>();

  /** Takes the turn of `sessionId` or throws SessionBusyError; release exactly once. */
  take(store: Store, sessionId: string): HeldTurn {
    if (this.held.has(sessionId))
      throw new SessionBusyError(
        `session ${sessionId.slice(-8)} is busy: this process is running a turn in it; wait for it to finish`,
        sessionId,
      );
    const lease = acquireTurnLease(store, sessionId);
    if (!lease.ok) throw new SessionBusyError(lease.message, sessionId);
    this.held.add(sessionId);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.held.delete(sessionId);
        lease.release();
      },
    };
  }

  /** The refusal a turn in `sessionId` would get now, if any (peeks, keeps nothing). */
  refusal(store: Store, sessionId: string): SessionBusyError | undefined {
    try {
      this.take(store, sessionId).release();
      return undefined;
    } catch (err) {
      if (err instanceof SessionBusyError) return err;
      throw err;
    }
  }
}
