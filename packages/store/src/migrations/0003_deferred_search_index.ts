// Search indexing leaves the append transaction (issue 3: append >= 20,000 nodes/s).
//
// Until 0002 an AFTER INSERT trigger wrote every node into both FTS5 indexes inside the append
// transaction. FTS5 flushes a segment per statement, so each round of 4 nodes wrote ~38 pages
// and indexing cost ~5x the rest of the append. Now appends write nodes only, and the indexes
// follow a watermark: every node with seq <= search_index_state.indexed_upto is indexed, every
// node above it is not yet. The catch-up (search-index.ts) indexes all nodes above the mark in
// one transaction and advances it; search() runs it first, so results are always complete.
// Trade-off: the first search after many appends pays for indexing them (in bulk, ~4x cheaper
// per node than the trigger was); a crash loses nothing, since the nodes are the source of truth.
//
// Nodes are append-only, but the update and delete triggers stay so an edit made by hand or by
// a repair keeps the indexes exact. They touch the FTS tables only for rows already indexed. A
// delete also lowers the mark to the largest remaining seq: SQLite may reuse a deleted largest
// rowid, and that reused seq must count as not yet indexed.
export const MIGRATION_0003 = `
DROP TRIGGER nodes_fts_insert;
DROP TRIGGER nodes_fts_update;
DROP TRIGGER nodes_fts_delete;

CREATE TABLE search_index_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  indexed_upto INTEGER NOT NULL
);
-- Every node that exists now was indexed by the insert trigger.
INSERT INTO search_index_state (id, indexed_upto) SELECT 1, COALESCE(MAX(seq), 0) FROM nodes;

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
