// One live turn per session (migration 0005, SPEC D1/H1): a lease names the process holding it
// (pid and host) and expires; the holder renews it while its turn runs. A lease whose holder
// died (same host, pid gone) or whose expiry passed is taken over, so a crash never blocks a
// session for longer than one expiry.
import type { Database, Statement, Transaction } from "./driver.js";

export interface LeaseHolder {
  pid: number;
  host: string;
}

export interface SessionLease extends LeaseHolder {
  sessionId: string;
  acquiredAt: number;
  expiresAt: number;
}

export type AcquireLeaseResult = { ok: true; lease: SessionLease } | { ok: false; heldBy: SessionLease };

export interface LeaseDbRow {
  session_id: string;
  pid: number;
  host: string;
  acquired_at: number;
  expires_at: number;
}

export interface AcquireLeaseInput {
  sessionId: string;
  holder: LeaseHolder;
  ttlMs: number;
  now: number;
  /** Whether a process of this host is alive (a dead holder's lease is taken over at once). */
  isAlive: (pid: number) => boolean;
}

export class SessionLeaseRepo {
  private readonly read: Statement<LeaseDbRow>;
  private readonly write: Statement;
  private readonly renewStmt: Statement;
  private readonly releaseStmt: Statement;
  private readonly all: Statement<LeaseDbRow>;
  private readonly acquireTx: Transaction<(input: AcquireLeaseInput) => AcquireLeaseResult>;

  constructor(db: Database) {
    this.read = db.prepare(
      "SELECT session_id, pid, host, acquired_at, expires_at FROM session_leases WHERE session_id = ?",
    );
    this.write = db.prepare(
      "INSERT OR REPLACE INTO session_leases (session_id, pid, host, acquired_at, expires_at) VALUES (?, ?, ?, ?, ?)",
    );
    this.renewStmt = db.prepare(
      "UPDATE session_leases SET expires_at = ? WHERE session_id = ? AND pid = ? AND host = ?",
    );
    this.releaseStmt = db.prepare("DELETE FROM session_leases WHERE session_id = ? AND pid = ? AND host = ?");
    this.all = db.prepare("SELECT session_id, pid, host, acquired_at, expires_at FROM session_leases");
    this.acquireTx = db.transaction((input: AcquireLeaseInput) => {
      const found = this.read.get(input.sessionId);
      if (found) {
        const held = toLease(found);
        if (heldByAnother(held, input)) return { ok: false, heldBy: held };
      }
      const lease: SessionLease = {
        sessionId: input.sessionId,
        ...input.holder,
        acquiredAt: input.now,
        expiresAt: input.now + input.ttlMs,
      };
      this.write.run(lease.sessionId, lease.pid, lease.host, lease.acquiredAt, lease.expiresAt);
      return { ok: true, lease };
    });
  }

  /** Takes the session's lease in one write transaction (two processes cannot both win). */
  acquire(input: AcquireLeaseInput): AcquireLeaseResult {
    return this.acquireTx.immediate(input);
  }

  /** Pushes the expiry out; false when the lease is no longer ours (it expired and was taken). */
  renew(sessionId: string, holder: LeaseHolder, expiresAt: number): boolean {
    return this.renewStmt.run(expiresAt, sessionId, holder.pid, holder.host).changes > 0;
  }

  release(sessionId: string, holder: LeaseHolder): void {
    this.releaseStmt.run(sessionId, holder.pid, holder.host);
  }

  list(): SessionLease[] {
    return this.all.all().map(toLease);
  }
}

/**
 * Whether `held` keeps `input`'s holder out: another holder's lease that has not expired and
 * whose holder is alive (a dead pid on this host frees it at once).
 */
export function heldByAnother(held: SessionLease, input: AcquireLeaseInput): boolean {
  const mine = held.pid === input.holder.pid && held.host === input.holder.host;
  const live = held.expiresAt > input.now && (held.host !== input.holder.host || input.isAlive(held.pid));
  return !mine && live;
}

export function toLease(r: LeaseDbRow): SessionLease {
  return {
    sessionId: r.session_id,
    pid: r.pid,
    host: r.host,
    acquiredAt: r.acquired_at,
    expiresAt: r.expires_at,
  };
}
