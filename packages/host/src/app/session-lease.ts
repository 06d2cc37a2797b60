// One live turn per session (SPEC D1, H1): a turn holds the session's lease in the store while it
// runs. A second process that wants a turn in the same session is refused with a message naming
// the holder, instead of interleaving its messages with the first one's.
//
// Refuse, not queue: a queued message was written against an answer the user has not seen yet
// (the other turn is still producing it), and a `-p` run that waits for an unknown time looks
// hung. A refusal is immediate and says what to do. A crashed holder never blocks for long: a
// lease whose pid is gone (same host) is taken over at once, any other after its expiry.
import { hostname } from "node:os";
import { isBusyError, type Store, shortId } from "@iris/store";

/** A holder renews every third of this; a holder on another host that vanished frees it after this. */
export const LEASE_TTL_MS = 60_000;

export type TurnLease = { ok: true; release(): Promise<void> } | { ok: false; message: string };

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function acquireTurnLease(
  store: Store,
  sessionId: string,
  now: () => number = Date.now,
): Promise<TurnLease> {
  const holder = { pid: process.pid, host: hostname() };
  let got: Awaited<ReturnType<Store["leases"]["acquire"]>>;
  try {
    got = await store.leases.acquire({
      sessionId,
      holder,
      ttlMs: LEASE_TTL_MS,
      now: now(),
      isAlive: pidAlive,
    });
  } catch (err) {
    // The write lock stayed taken past the store's busy timeout (the bound on this call).
    if (!isBusyError(err)) throw err;
    return {
      ok: false,
      message: `session ${shortId(sessionId)} cannot start a turn: state.db stayed locked by another writer past the store's busy timeout; try again`,
    };
  }
  if (!got.ok) {
    const by = got.heldBy;
    const where = by.host === holder.host ? `pid ${by.pid}` : `pid ${by.pid} on ${by.host}`;
    return {
      ok: false,
      message: `session ${shortId(sessionId)} is busy: another iris (${where}) is running a turn in it since ${new Date(by.acquiredAt).toISOString().slice(11, 19)} UTC; wait for it to finish, or start a new session`,
    };
  }
  const renew = setInterval(() => {
    store.leases.renew(sessionId, holder, now() + LEASE_TTL_MS).catch(() => {
      // A busy store: the next renewal tries again; the lease lasts a whole TTL.
    });
  }, LEASE_TTL_MS / 3);
  renew.unref();
  let released = false;
  return {
    ok: true,
    release: async () => {
      if (released) return;
      released = true;
      clearInterval(renew);
      try {
        await store.leases.release(sessionId, holder);
      } catch {
        // Closed or busy store: the lease expires on its own, and a dead pid frees it at once.
      }
    },
  };
}
