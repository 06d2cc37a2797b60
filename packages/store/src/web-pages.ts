// The pages the web tools have read in this profile (migration 0032), for the `local` search
// backend: kept across processes, newest WEB_PAGES_KEPT, searched through an FTS5 index of the
// terms the backend gives (it splits the text; the store only stores and ranks).
import type { Database } from "./driver.js";
import { type CachedDatabase, withStatementCache } from "./statement-cache.js";

/** Pages kept; the oldest read go first. */
export const WEB_PAGES_KEPT = 2000;
/** Characters of a page's text kept (snippets and ranking need no more). */
const TEXT_KEPT = 50_000;

export interface WebPageInput {
  url: string;
  title: string;
  text: string;
  /** Search terms, space-separated, as the backend splits queries too. */
  terms: string;
}

export interface WebPageHit {
  url: string;
  title: string;
  text: string;
  readAt: number;
}

export class WebPages {
  private readonly stmts: CachedDatabase;

  constructor(private readonly db: Database) {
    this.stmts = withStatementCache(db);
  }

  /** Stores a page read now (a page read again replaces its older copy). */
  put(page: WebPageInput, now = Date.now()): void {
    this.db
      .transaction(() => {
        this.stmts.prepare("DELETE FROM web_pages WHERE url = ?").run(page.url);
        this.stmts
          .prepare("INSERT INTO web_pages (url, title, text, terms, read_at) VALUES (?, ?, ?, ?, ?)")
          .run(page.url, page.title, page.text.slice(0, TEXT_KEPT), page.terms, now);
        this.stmts
          .prepare(
            "DELETE FROM web_pages WHERE id IN (SELECT id FROM web_pages ORDER BY read_at DESC, id DESC LIMIT -1 OFFSET ?)",
          )
          .run(WEB_PAGES_KEPT);
      })
      .immediate();
  }

  /** The best `limit` pages holding any of `terms` (bm25, title and text alike). */
  search(terms: string[], limit: number): WebPageHit[] {
    const quoted = [...new Set(terms)].filter((t) => t.length > 0).map((t) => `"${t.replaceAll('"', '""')}"`);
    if (quoted.length === 0) return [];
    return this.stmts
      .prepare<WebPageHit>(
        "SELECT p.url, p.title, p.text, p.read_at AS readAt FROM web_pages_fts f JOIN web_pages p ON p.id = f.rowid " +
          "WHERE web_pages_fts MATCH ? ORDER BY bm25(web_pages_fts), p.read_at DESC LIMIT ?",
      )
      .all(quoted.join(" OR "), limit);
  }

  count(): number {
    return (this.stmts.prepare<{ n: number }>("SELECT COUNT(*) AS n FROM web_pages").get()?.n ?? 0) as number;
  }
}
