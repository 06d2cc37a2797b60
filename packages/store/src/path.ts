// Assembling the path from a node up to its root (SPEC D3), run by run (see migration 0004).
//
// Each run is one range of a session's rows (path-runs.ts). run_start is only a hint: a run
// whose rows are not one parent chain, or a parent that is not older than its child, sends the
// whole path to the exact fallback, which follows the parent pointers one by one.
import type { Database, Statement } from "./driver.js";
import { StoreError } from "./errors.js";
import { PATH_COLUMNS, toNodeRowFromPathValues } from "./path-rows.js";
import { RunReader } from "./path-runs.js";
import type { NodeRow } from "./rows.js";

/** A guard for corrupted parent pointers: no real conversation is this deep. */
const MAX_DEPTH = 10_000_000;

interface RunEnd {
  seq: number;
  session_id: string;
  run_start: number | null;
}

export class PathReader {
  private readonly head: Statement<RunEnd>;
  private readonly runReader: RunReader;
  private readonly walk: Statement<unknown[]>;

  constructor(db: Database) {
    this.head = db.prepare("SELECT seq, session_id, run_start FROM nodes WHERE id = ?");
    this.runReader = new RunReader(db);
    this.walk = db
      .prepare(
        `WITH RECURSIVE path(seq, parent_id, depth) AS (
           SELECT seq, parent_id, 0 FROM nodes WHERE id = ?
           UNION ALL
           SELECT n.seq, n.parent_id, path.depth + 1 FROM path JOIN nodes n ON n.id = path.parent_id
           WHERE path.depth < ${MAX_DEPTH}
         )
         SELECT ${PATH_COLUMNS} FROM path CROSS JOIN nodes n ON n.seq = path.seq`,
      )
      .raw(true);
  }

  /** The path from the root to `leafId`, root first. */
  pathToRoot(leafId: string): NodeRow[] {
    const runs = this.runs(leafId);
    if (runs) return runs.reverse().flat();
    return this.walk.all(leafId).reverse().map(toNodeRowFromPathValues);
  }

  /** The path as runs, the leaf's run first; undefined when one does not check out. */
  runs(leafId: string): NodeRow[][] | undefined {
    const runs: NodeRow[][] = [];
    let end = this.head.get(leafId);
    if (!end) throw new StoreError("not_found", `no node with id ${JSON.stringify(leafId)}`);
    for (;;) {
      const start = end.run_start ?? end.seq;
      const rows = this.runReader.read(end.session_id, start, end.seq);
      if (!rows) return undefined;
      runs.push(rows);
      const parentId = rows[0]?.parentId ?? null;
      if (parentId === null) return runs;
      end = this.head.get(parentId);
      // A parent is always older than its child; anything else is a damaged pointer.
      if (!end || end.seq >= start) return undefined;
    }
  }
}
