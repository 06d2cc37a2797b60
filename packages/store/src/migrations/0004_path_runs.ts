// Path runs: a path is read as a few index range scans instead of one parent lookup per node
// (issue 3: a 10,000-node path in < 50 ms, append >= 20,000 nodes/s).
//
// run_start: a node whose parent is the node appended just before it in the same session
// continues that node's run and records where the run began; any other node (a session's first
// node, a branch, a compaction root) starts a run and keeps NULL. All session nodes with seq from
// a run's start to its end then form one parent chain, read in seq order by nodes_by_session.
// The value is only a hint: path.ts checks every parent pointer of a range it reads, and walks
// the pointers one by one when a range does not check out (a row deleted or edited by hand).
//
// nodes_by_parent goes: with ids in time order each of the three node indexes rewrote ~1.8 WAL
// pages per round (right-edge splits), and nothing reads children by parent any more; the list
// of branch tips is computed from one scan of the session (nodes.ts).
export const MIGRATION_0004 = `
DROP INDEX nodes_by_parent;
ALTER TABLE nodes ADD COLUMN run_start INTEGER;

UPDATE nodes SET run_start = runs.start
FROM (
  SELECT seq, is_next,
    MAX(CASE WHEN is_next THEN NULL ELSE seq END)
      OVER (PARTITION BY session_id ORDER BY seq ROWS UNBOUNDED PRECEDING) AS start
  FROM (
    SELECT seq, session_id,
      parent_id IS NOT NULL AND parent_id IS LAG(id) OVER (PARTITION BY session_id ORDER BY seq) AS is_next
    FROM nodes
  )
) AS runs
WHERE runs.seq = nodes.seq AND runs.is_next;
`;
