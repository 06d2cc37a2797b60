// MCP server states and the pages the web tools read, on Postgres (the SQLite engine's
// mcp-state.ts and web-pages.ts). A process's MCP rows are keyed by platform, pid and host: pids
// repeat across the machines sharing the engine. Pages are found through a 'simple' text-search
// vector of their terms (migration 2), ranked by ts_rank as SQLite ranks by bm25.
import { hostname } from "node:os";
import type { McpStateRow } from "../mcp-state.js";
import type { McpStates, WebPages } from "../state.js";
import { WEB_PAGES_KEPT, type WebPageHit } from "../web-pages.js";
import { inTransaction, type Pool } from "./pool.js";

/** Characters of a page's text kept (as on SQLite). */
const TEXT_KEPT = 50_000;
/** Characters of a page's terms indexed: a tsvector holds at most 1 MB, and ranking needs less. */
const TERMS_KEPT = 200_000;

export function pgMcpStates(pool: Pool): McpStates {
  const host = hostname();
  const ownerKey = (platform: string, pid: number) => `${platform}:${pid}@${host}`;
  return {
    record(owner, servers, now = Date.now()) {
      const key = ownerKey(owner.platform, owner.pid);
      return inTransaction(pool, async (db) => {
        await db.query("DELETE FROM mcp_server_state WHERE owner = $1", [key]);
        for (const s of servers)
          await db.query(
            "INSERT INTO mcp_server_state (owner, server, platform, pid, host, state, transport, tools, last_error, " +
              "restarts, started_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            [
              key,
              s.server,
              owner.platform,
              owner.pid,
              host,
              s.state,
              s.transport,
              s.tools,
              s.lastError ?? null,
              s.restarts,
              owner.startedAt,
              now,
            ],
          );
      });
    },
    async clear(platform, pid) {
      await pool.query("DELETE FROM mcp_server_state WHERE owner = $1", [ownerKey(platform, pid)]);
    },
    async list() {
      const { rows } = await pool.query<McpStateRow & { lastError: string | null }>(
        'SELECT owner, server, platform, pid, host, state, transport, tools, last_error AS "lastError", restarts, ' +
          'started_at AS "startedAt", updated_at AS "updatedAt" FROM mcp_server_state ' +
          'ORDER BY platform COLLATE "C", pid, host COLLATE "C", server COLLATE "C"',
      );
      return rows.map(({ lastError, ...rest }) => (lastError === null ? rest : { ...rest, lastError }));
    },
  };
}

export function pgWebPages(pool: Pool): WebPages {
  return {
    put(page, now = Date.now()) {
      return inTransaction(pool, async (db) => {
        // A page read again takes a new id: the newest read is kept longest, as on SQLite.
        await db.query(
          "INSERT INTO web_pages (url, title, text, terms, read_at) VALUES ($1, $2, $3, $4, $5) " +
            "ON CONFLICT (url) DO UPDATE SET id = nextval(pg_get_serial_sequence('web_pages', 'id')), " +
            "title = excluded.title, text = excluded.text, terms = excluded.terms, read_at = excluded.read_at",
          [page.url, page.title, page.text.slice(0, TEXT_KEPT), page.terms.slice(0, TERMS_KEPT), now],
        );
        await db.query(
          "DELETE FROM web_pages WHERE id IN (SELECT id FROM web_pages ORDER BY read_at DESC, id DESC OFFSET $1)",
          [WEB_PAGES_KEPT],
        );
      });
    },
    async search(terms, limit) {
      const words = [...new Set(terms)].filter((t) => t.length > 0);
      if (words.length === 0) return [];
      // Each term is text (plainto_tsquery never reads operators); any of them may match.
      const query = words.map((_, i) => `plainto_tsquery('simple', $${i + 2})`).join(" || ");
      const { rows } = await pool.query<WebPageHit>(
        `WITH q AS (SELECT ${query} AS q) SELECT p.url, p.title, p.text, p.read_at AS "readAt" FROM web_pages p, q ` +
          "WHERE p.search @@ q.q ORDER BY ts_rank(p.search, q.q) DESC, p.read_at DESC LIMIT $1",
        [limit, ...words],
      );
      return rows;
    },
    async count() {
      const { rows } = await pool.query<{ n: number }>("SELECT COUNT(*)::bigint AS n FROM web_pages");
      return rows[0]?.n ?? 0;
    },
  };
}
