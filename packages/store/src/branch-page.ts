// One page of a branch's conversation (SPEC D3, the dashboard's branch view): the path from the
// root to a leaf, `limit` nodes after `afterSeq`, without loading the whole path. A path is a few
// runs (migration 0004: contiguous seq ranges that are one parent chain), found from the leaf by
// two point look-ups per run; only the page's rows are read, by nodes_by_session's range. The
// run_start hint is checked on the rows read (each row's parent is the one before it); where it
// does not hold, the exact path is read instead (slower, never wrong).
import type { Database } from "./driver.js";
import { PathReader } from "./path.js";
import { NODE_COLUMNS, type NodeDbRow, type NodeRow, toNodeRow } from "./rows.js";
import { type CachedDatabase, withStatementCache } from "./statement-cache.js";

interface Run {
  start: number;
  end: number;
  /** The parent of the run's first node (the previous run's last), null at the root. */
  parentId: string | null;
}

interface HeadRow {
  seq: number;
  session_id: string;
  run_start: number | null;
  parent_id: string | null;
}

/** Guards a damaged hint chain: no real path has this many runs. */
const MAX_RUNS = 1_000_000;

export class BranchPages {
  private readonly stmts: CachedDatabase;
  private readonly paths: PathReader;

  constructor(db: Database) {
    this.stmts = withStatementCache(db);
    this.paths = new PathReader(db);
  }

  /** The path's nodes after `afterSeq`, root first, at most `limit`; undefined when `leafId` is not in the session. */
  page(sessionId: string, leafId: string, afterSeq: number, limit: number): NodeRow[] | undefined {
    const runs = this.runs(sessionId, leafId);
    if (runs === null) return undefined;
    const rows = runs ? this.fromRuns(sessionId, runs, afterSeq, limit) : undefined;
    return rows ?? this.exact(leafId, afterSeq, limit);
  }

  /** Root first; null: no such leaf in the session; undefined: the hints do not check out. */
  private runs(sessionId: string, leafId: string): Run[] | null | undefined {
    const byId = this.stmts.prepare<HeadRow>(
      "SELECT seq, session_id, run_start, parent_id FROM nodes WHERE id = ?",
    );
    const bySeq = this.stmts.prepare<HeadRow>(
      "SELECT seq, session_id, run_start, parent_id FROM nodes WHERE seq = ?",
    );
    let end = byId.get(leafId);
    if (!end || end.session_id !== sessionId) return null;
    const runs: Run[] = [];
    for (let i = 0; i < MAX_RUNS; i++) {
      const start = end.run_start ?? end.seq;
      if (start > end.seq) return undefined;
      const first = start === end.seq ? end : bySeq.get(start);
      if (!first || first.session_id !== end.session_id) return undefined;
      runs.push({ start, end: end.seq, parentId: first.parent_id });
      if (first.parent_id === null) return runs.reverse();
      const parent = byId.get(first.parent_id);
      // A parent is always older than its child; anything else is a damaged pointer.
      if (!parent || parent.seq >= start) return undefined;
      end = parent;
    }
    return undefined;
  }

  private fromRuns(sessionId: string, runs: Run[], afterSeq: number, limit: number): NodeRow[] | undefined {
    const range = this.stmts.prepare<NodeDbRow>(
      `SELECT ${NODE_COLUMNS} FROM nodes WHERE session_id = ? AND seq BETWEEN ? AND ? ORDER BY seq LIMIT ?`,
    );
    const out: NodeRow[] = [];
    for (const run of runs) {
      if (out.length >= limit) break;
      if (run.end <= afterSeq) continue;
      const from = Math.max(run.start, afterSeq + 1);
      const rows = range.all(sessionId, from, run.end, limit - out.length).map(toNodeRow);
      // The rows read must be one chain: the run's first node hangs off the run before.
      let previous: string | null | undefined = from === run.start ? run.parentId : undefined;
      for (const row of rows) {
        if (previous !== undefined && row.parentId !== previous) return undefined;
        previous = row.id;
      }
      out.push(...rows);
    }
    return out;
  }

  private exact(leafId: string, afterSeq: number, limit: number): NodeRow[] {
    return this.paths
      .pathToRoot(leafId)
      .filter((n) => n.seq > afterSeq)
      .slice(0, limit);
  }
}
