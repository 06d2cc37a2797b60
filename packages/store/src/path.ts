// Assembling the path from a node up to its root (SPEC D3), run by run (see migration 0004).
//
// A run is read by one aggregate query that hands JavaScript a handful of long strings instead
// of ~10 values per row: on a 10,000-node path, making each row's values cost more than
// decoding and parsing the messages themselves. SQLite also checks that the run is one parent
// chain (the parent ids of rows 2..n, joined, equal the ids of rows 1..n-1), so run_start stays
// a hint: a run that does not check out is read by following the pointers one by one.
import type { Database, Statement } from "./driver.js";
import { StoreError } from "./errors.js";
import {
  type NodeRow,
  PATH_COLUMNS,
  packedRowFields,
  toNodeRowFromPathValues,
  toNodeRowFromRun,
} from "./rows.js";

/** A guard for corrupted parent pointers: no real conversation is this deep. */
const MAX_DEPTH = 10_000_000;
/** Joins ids in the aggregates (char(31)); appendNode refuses ids with control characters. */
const ID_SEPARATOR = "\u001f";

interface RunEnd {
  seq: number;
  session_id: string;
  run_start: number | null;
}

interface RunAggregate {
  chained: number | null;
  first_parent: string | null;
  ids: string;
  /** [seq, created_at, token_count] per row, flat. */
  nums: string;
  /** 0 for a plain message row, else the packed fields (rows.ts). */
  extras: string;
  payloads: string;
}

export class PathReader {
  private readonly head: Statement<RunEnd>;
  private readonly run: Statement<RunAggregate>;
  private readonly walk: Statement<unknown[]>;

  constructor(db: Database) {
    this.head = db.prepare("SELECT seq, session_id, run_start FROM nodes WHERE id = ?");
    // Rows come from nodes_by_session in seq order; the JS side checks the seqs ascend.
    this.run = db.prepare(
      `SELECT
         min(seq) = :start AND max(seq) = :end AND
           (group_concat(parent_id, char(31)) FILTER (WHERE seq > :start)) IS
           (group_concat(id, char(31)) FILTER (WHERE seq < :end)) AS chained,
         max(parent_id) FILTER (WHERE seq = :start) AS first_parent,
         group_concat(id, char(31)) AS ids,
         '[' || group_concat(seq || ',' || created_at || ',' || ifnull(token_count, 'null'), ',') || ']' AS nums,
         '[' || group_concat(${packedRowFields("")}, ',') || ']' AS extras,
         '[' || group_concat(ifnull(payload, 'null'), ',') || ']' AS payloads
       FROM nodes WHERE session_id = :session AND seq BETWEEN :start AND :end`,
    );
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
      const agg = this.run.get({ session: end.session_id, start, end: end.seq });
      const rows = agg?.chained === 1 ? decodeRun(agg, end.session_id) : undefined;
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

/** NodeRows from a checked run's aggregates; undefined when they do not line up. */
function decodeRun(agg: RunAggregate, sessionId: string): NodeRow[] | undefined {
  let ids: string[];
  let nums: (number | null)[];
  let extras: (0 | unknown[])[];
  let payloads: unknown[];
  try {
    ids = agg.ids.split(ID_SEPARATOR);
    nums = JSON.parse(agg.nums);
    extras = JSON.parse(agg.extras);
    payloads = JSON.parse(agg.payloads);
  } catch {
    return undefined; // a payload edited by hand into invalid JSON: the row-by-row read reports it
  }
  const n = ids.length;
  if (nums.length !== 3 * n || extras.length !== n || payloads.length !== n) return undefined;
  const rows: NodeRow[] = new Array(n);
  let previousSeq = -1;
  for (let i = 0; i < n; i++) {
    const seq = nums[3 * i] as number;
    if (seq <= previousSeq) return undefined;
    previousSeq = seq;
    rows[i] = toNodeRowFromRun(
      ids[i] as string,
      seq,
      sessionId,
      i > 0 ? (ids[i - 1] as string) : agg.first_parent,
      nums[3 * i + 1] as number,
      nums[3 * i + 2] as number | null,
      extras[i] as 0 | unknown[],
      payloads[i],
    );
  }
  return rows;
}
