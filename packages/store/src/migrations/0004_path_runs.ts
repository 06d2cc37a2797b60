// The nodes table, rebuilt for speed (issue 3: append >= 20,000 nodes/s in rounds, a
// 10,000-node path in < 50 ms). Rows keep their seq, so both FTS indexes and their watermark
// stay valid; migrate() runs this with foreign keys off and checks them before committing.
//
// - run_start: a node whose parent is the node appended just before it in the same session
//   continues that node's run and records where the run began; any other node (a session's
//   first, a branch, a compaction root) starts a run and keeps NULL. All session nodes with seq
//   from a run's start to its end then form one parent chain, which a path read takes in one
//   range scan of nodes_by_session (path.ts). It is only a hint: path.ts checks every parent
//   pointer of a run, and walks the pointers one by one when a run does not check out.
// - CHECK (x = 'a' OR x = 'b' …) instead of CHECK (x IN ('a', 'b', …)): SQLite builds an
//   ephemeral index for an IN list on every insert; two of them were ~8% of an append.
// - The large columns go last: reading a small column after a payload that spilled into
//   overflow pages would walk those pages.
// - sessions.leaf_follows_newest: while 1, the session's active leaf is its newest node, so an
//   append does not rewrite the sessions row (one WAL page and one UPDATE per round). Pinning
//   the leaf elsewhere (branching, a node appended without moving it) sets 0 and active_leaf_id.
//   Existing sessions start pinned at their current leaf.
// - nodes_by_parent goes: with time-ordered ids each node index rewrote ~1.8 WAL pages per
//   round (right-edge splits), and nothing reads children by parent any more (the branch tips
//   come from one scan of the session, nodes.ts).
export const MIGRATION_0004 = `
CREATE TABLE nodes_v4 (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  parent_id TEXT REFERENCES nodes(id),
  run_start INTEGER,
  kind TEXT NOT NULL CHECK (kind = 'message' OR kind = 'compaction' OR kind = 'note'),
  role TEXT CHECK (role = 'user' OR role = 'assistant' OR role = 'tool'),
  expands_to TEXT REFERENCES nodes(id),
  provider TEXT,
  api_mode TEXT,
  model TEXT,
  token_count INTEGER,
  input_tokens INTEGER,
  output_tokens INTEGER,
  cache_read_tokens INTEGER,
  cache_write_tokens INTEGER,
  reasoning_tokens INTEGER,
  created_at INTEGER NOT NULL,
  body_text TEXT,
  payload TEXT,
  search_text TEXT NOT NULL DEFAULT ''
);

INSERT INTO nodes_v4 (seq, id, session_id, parent_id, run_start, kind, role, expands_to, provider,
  api_mode, model, token_count, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,
  reasoning_tokens, created_at, body_text, payload, search_text)
SELECT seq, id, session_id, parent_id,
  CASE WHEN is_next THEN MAX(CASE WHEN is_next THEN NULL ELSE seq END)
    OVER (PARTITION BY session_id ORDER BY seq ROWS UNBOUNDED PRECEDING) END,
  kind, role, expands_to, provider, api_mode, model, token_count, input_tokens, output_tokens,
  cache_read_tokens, cache_write_tokens, reasoning_tokens, created_at, body_text, payload, search_text
FROM (
  SELECT *, parent_id IS NOT NULL AND parent_id IS LAG(id) OVER (PARTITION BY session_id ORDER BY seq) AS is_next
  FROM nodes
)
ORDER BY seq;

DROP TABLE nodes;
ALTER TABLE nodes_v4 RENAME TO nodes;
CREATE INDEX nodes_by_session ON nodes(session_id, seq);
ALTER TABLE sessions ADD COLUMN leaf_follows_newest INTEGER NOT NULL DEFAULT 0;

-- The triggers of migration 0003, unchanged (dropping the old table dropped them).
CREATE TRIGGER nodes_fts_delete AFTER DELETE ON nodes BEGIN
  INSERT INTO nodes_fts(nodes_fts, rowid, search_text)
    SELECT 'delete', old.seq, old.search_text FROM search_index_state
    WHERE old.search_text <> '' AND old.seq <= indexed_upto;
  INSERT INTO nodes_fts_trigram(nodes_fts_trigram, rowid, search_text)
    SELECT 'delete', old.seq, old.search_text FROM search_index_state
    WHERE old.search_text <> '' AND old.seq <= indexed_upto;
  UPDATE search_index_state
    SET indexed_upto = MIN(indexed_upto, (SELECT COALESCE(MAX(seq), 0) FROM nodes));
END;
CREATE TRIGGER nodes_fts_update AFTER UPDATE OF search_text ON nodes
WHEN old.seq <= (SELECT indexed_upto FROM search_index_state) BEGIN
  INSERT INTO nodes_fts(nodes_fts, rowid, search_text)
    SELECT 'delete', old.seq, old.search_text WHERE old.search_text <> '';
  INSERT INTO nodes_fts_trigram(nodes_fts_trigram, rowid, search_text)
    SELECT 'delete', old.seq, old.search_text WHERE old.search_text <> '';
  INSERT INTO nodes_fts(rowid, search_text) SELECT new.seq, new.search_text WHERE new.search_text <> '';
  INSERT INTO nodes_fts_trigram(rowid, search_text)
    SELECT new.seq, new.search_text WHERE new.search_text <> '';
END;
`;
