// The tips of a session's branches (nodes with no child) and its fork points (nodes with more
// than one) for the dashboard, without scanning a big session on every view and without any cost
// on the append path (nodes have no parent index: migration 0004 dropped it for append speed).
// The first look at a session scans it once in SQL (nodes_by_session; no rows into JavaScript
// but the few tips and forks); after that only the nodes appended since are read: nodes never
// change once written, a new node ends its parent's tip or, when the parent was no tip, makes it
// a fork, and only a whole session is ever deleted.
import type { Database } from "./driver.js";
import { type CachedDatabase, withStatementCache } from "./statement-cache.js";

export interface BranchTip {
  id: string;
  createdAt: number;
}

interface Known {
  lastSeq: number;
  tips: Map<string, { seq: number; createdAt: number }>;
  forks: Set<string>;
}

/** Sessions whose tips are kept (the least recently viewed goes first). */
const KEPT_SESSIONS = 64;

export class BranchTips {
  private readonly stmts: CachedDatabase;
  private readonly known = new Map<string, Known>();

  constructor(db: Database) {
    this.stmts = withStatementCache(db);
  }

  /** The tips, oldest first. */
  list(sessionId: string): BranchTip[] {
    const known = this.refresh(sessionId);
    return [...known.tips.entries()]
      .sort((a, b) => a[1].seq - b[1].seq)
      .map(([id, t]) => ({ id, createdAt: t.createdAt }));
  }

  /** Ids of the session's nodes with more than one child. */
  forks(sessionId: string): Set<string> {
    return this.refresh(sessionId).forks;
  }

  private refresh(sessionId: string): Known {
    let known = this.known.get(sessionId);
    this.known.delete(sessionId);
    if (known) {
      const added = this.stmts
        .prepare<{ id: string; parent_id: string | null; seq: number; created_at: number }>(
          "SELECT id, parent_id, seq, created_at FROM nodes WHERE session_id = ? AND seq > ? ORDER BY seq",
        )
        .all(sessionId, known.lastSeq);
      for (const n of added) {
        if (n.parent_id !== null && !known.tips.delete(n.parent_id)) known.forks.add(n.parent_id);
        known.tips.set(n.id, { seq: n.seq, createdAt: n.created_at });
        known.lastSeq = n.seq;
      }
      // A session deleted (and its ids gone): start again from a scan.
      if (added.length === 0 && known.tips.size > 0 && !this.exists(sessionId)) known = undefined;
    }
    if (!known) {
      const rows = this.stmts
        .prepare<{ id: string; seq: number; created_at: number }>(
          "SELECT n.id, n.seq, n.created_at FROM nodes n WHERE n.session_id = ? AND n.id NOT IN " +
            "(SELECT parent_id FROM nodes WHERE session_id = ? AND parent_id IS NOT NULL)",
        )
        .all(sessionId, sessionId);
      const forks = this.stmts
        .prepare<{ parent_id: string }>(
          "SELECT parent_id FROM nodes WHERE session_id = ? AND parent_id IS NOT NULL GROUP BY parent_id HAVING COUNT(*) > 1",
        )
        .all(sessionId);
      const last = this.stmts
        .prepare<{ seq: number | null }>("SELECT MAX(seq) AS seq FROM nodes WHERE session_id = ?")
        .get(sessionId);
      known = {
        lastSeq: last?.seq ?? 0,
        tips: new Map(rows.map((r) => [r.id, { seq: r.seq, createdAt: r.created_at }])),
        forks: new Set(forks.map((f) => f.parent_id)),
      };
    }
    this.known.set(sessionId, known);
    while (this.known.size > KEPT_SESSIONS) this.known.delete(this.known.keys().next().value as string);
    return known;
  }

  private exists(sessionId: string): boolean {
    return this.stmts.prepare("SELECT 1 FROM sessions WHERE id = ?").get(sessionId) !== undefined;
  }
}
