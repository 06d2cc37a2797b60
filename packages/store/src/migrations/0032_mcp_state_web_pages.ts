// Two small tables (migration 0032):
//
// mcp_server_state: each MCP server as a running process sees it (state, transport, tools, last
// error, restarts), one row per process and server, written when a server's state changes and
// removed when the process closes. The dashboard shows these live states from another process;
// a row whose pid is gone is a process that crashed.
//
// web_pages: the pages the web tools have read in this profile (newest kept), searched by the
// `local` search backend from any later process. `terms` holds the words of the title and text
// as the backend splits them (two-character pieces for Korean, Chinese and Japanese), so the
// unicode61 index finds CJK text that has no spaces between its words.
export const MIGRATION_0032 = `
CREATE TABLE mcp_server_state (
  owner TEXT NOT NULL,
  server TEXT NOT NULL,
  platform TEXT NOT NULL,
  pid INTEGER NOT NULL,
  state TEXT NOT NULL,
  transport TEXT NOT NULL,
  tools INTEGER NOT NULL,
  last_error TEXT,
  restarts INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (owner, server)
) WITHOUT ROWID;

CREATE TABLE web_pages (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  text TEXT NOT NULL,
  terms TEXT NOT NULL,
  read_at INTEGER NOT NULL
);
CREATE INDEX web_pages_by_read ON web_pages(read_at);

CREATE VIRTUAL TABLE web_pages_fts USING fts5(
  terms, content='web_pages', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER web_pages_ai AFTER INSERT ON web_pages BEGIN
  INSERT INTO web_pages_fts(rowid, terms) VALUES (new.id, new.terms);
END;
CREATE TRIGGER web_pages_ad AFTER DELETE ON web_pages BEGIN
  INSERT INTO web_pages_fts(web_pages_fts, rowid, terms) VALUES ('delete', old.id, old.terms);
END;
`;
