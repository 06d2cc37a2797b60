// Sessions, the node tree and its two full-text indexes (SPEC D2, D3).
export const MIGRATION_0001 = `
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  title TEXT,
  source TEXT NOT NULL,
  cwd TEXT,
  parent_session_id TEXT REFERENCES sessions(id),
  system_prompt TEXT,
  model TEXT,
  provider TEXT,
  started_at INTEGER NOT NULL,
  ended_at INTEGER,
  end_reason TEXT,
  active_leaf_id TEXT REFERENCES nodes(id),
  api_calls INTEGER NOT NULL DEFAULT 0,
  input_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cache_read_tokens INTEGER NOT NULL DEFAULT 0,
  cache_write_tokens INTEGER NOT NULL DEFAULT 0,
  reasoning_tokens INTEGER NOT NULL DEFAULT 0,
  cost_usd REAL NOT NULL DEFAULT 0
);
CREATE INDEX sessions_by_start ON sessions(started_at DESC);
CREATE INDEX sessions_by_parent ON sessions(parent_session_id);

-- seq is the integer rowid the FTS indexes point at; id is the public node id.
CREATE TABLE nodes (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  parent_id TEXT REFERENCES nodes(id),
  kind TEXT NOT NULL CHECK (kind IN ('message', 'compaction', 'note')),
  role TEXT CHECK (role IN ('user', 'assistant', 'tool')),
  payload TEXT,
  body_text TEXT,
  search_text TEXT NOT NULL DEFAULT '',
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
  created_at INTEGER NOT NULL
);
CREATE INDEX nodes_by_session ON nodes(session_id, seq);
CREATE INDEX nodes_by_parent ON nodes(parent_id);

CREATE VIRTUAL TABLE nodes_fts USING fts5(
  search_text, content='nodes', content_rowid='seq', tokenize='unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE nodes_fts_trigram USING fts5(
  search_text, content='nodes', content_rowid='seq', tokenize='trigram'
);

CREATE TRIGGER nodes_fts_insert AFTER INSERT ON nodes WHEN new.search_text <> '' BEGIN
  INSERT INTO nodes_fts(rowid, search_text) VALUES (new.seq, new.search_text);
  INSERT INTO nodes_fts_trigram(rowid, search_text) VALUES (new.seq, new.search_text);
END;
CREATE TRIGGER nodes_fts_delete AFTER DELETE ON nodes WHEN old.search_text <> '' BEGIN
  INSERT INTO nodes_fts(nodes_fts, rowid, search_text) VALUES ('delete', old.seq, old.search_text);
  INSERT INTO nodes_fts_trigram(nodes_fts_trigram, rowid, search_text)
    VALUES ('delete', old.seq, old.search_text);
END;
CREATE TRIGGER nodes_fts_update AFTER UPDATE OF search_text ON nodes BEGIN
  INSERT INTO nodes_fts(nodes_fts, rowid, search_text)
    SELECT 'delete', old.seq, old.search_text WHERE old.search_text <> '';
  INSERT INTO nodes_fts_trigram(nodes_fts_trigram, rowid, search_text)
    SELECT 'delete', old.seq, old.search_text WHERE old.search_text <> '';
  INSERT INTO nodes_fts(rowid, search_text) SELECT new.seq, new.search_text WHERE new.search_text <> '';
  INSERT INTO nodes_fts_trigram(rowid, search_text)
    SELECT new.seq, new.search_text WHERE new.search_text <> '';
END;
`;
