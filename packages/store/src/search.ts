// Full-text search over nodes (SPEC D2, U7). Word queries use the unicode61 index; CJK and
// substring queries use the trigram index; terms under 3 characters (which trigram cannot
// index) are matched with LIKE. User input is always quoted, so FTS syntax in it never throws.
import type { Database } from "./driver.js";
import { isBusyError } from "./errors.js";
import type { SearchIndexer } from "./search-index.js";
import { type CachedDatabase, withStatementCache } from "./statement-cache.js";

export interface SearchOptions {
  limit?: number;
  excludeSessionId?: string;
  /** Force substring matching (trigram/LIKE) even for a word query. */
  substring?: boolean;
}

export interface SearchHit {
  sessionId: string;
  nodeId: string;
  snippet: string;
  role: string | null;
  createdAt: number;
  /** Which index answered: the word index, the trigram index or a LIKE scan. */
  via: "words" | "trigram" | "like";
}

interface HitRow {
  id: string;
  session_id: string;
  role: string | null;
  created_at: number;
  snippet: string;
}

export const CJK = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const SNIPPET_TOKENS = { nodes_fts: 16, nodes_fts_trigram: 40 } as const;
const LIKE_CONTEXT = 40;

/** The most a search indexes itself before it runs (seq numbers, ~a few ms of FTS5 work). */
export const SEARCH_CATCH_UP_SPAN = 500;

export class NodeSearch {
  private readonly stmts: CachedDatabase;

  constructor(
    private readonly db: Database,
    private readonly indexer: SearchIndexer,
  ) {
    this.stmts = withStatementCache(db);
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    // Index what was appended since the last catch-up first, in one short batch; a larger backlog
    // is the background indexer's job (Store), so a search never holds the write lock for long.
    // A read-only store cannot index: what lies above the mark is matched by LIKE instead.
    const unindexedAbove = this.db.readonly ? this.indexer.indexedUpto() : null;
    if (unindexedAbove === null) this.catchUpWithoutWaiting();
    const limit = Math.max(1, Math.min(options.limit ?? 20, 1000));
    const terms = query
      .trim()
      .split(/\s+/u)
      .filter((t) => t.length > 0);
    if (terms.length === 0) return [];
    const exclude = options.excludeSessionId ?? null;
    // Newest first: the unindexed nodes are newer than every indexed one.
    const recent = unindexedAbove === null ? [] : this.likeQuery(terms, exclude, limit, unindexedAbove);
    if (recent.length >= limit) return recent;
    const upto = unindexedAbove ?? Number.MAX_SAFE_INTEGER;
    return [...recent, ...this.indexed(terms, exclude, limit - recent.length, options, upto)];
  }

  /** Through the indexes; their LIKE fallback stays at or below `upto`, where the index reaches. */
  private indexed(
    terms: string[],
    exclude: string | null,
    limit: number,
    options: SearchOptions,
    upto: number,
  ): SearchHit[] {
    const substring = options.substring === true || terms.some((t) => CJK.test(t));
    if (!substring) {
      const hits = this.ftsQuery("nodes_fts", terms, [], exclude, limit);
      // A word search that finds nothing may be a piece of a word ("ripgr"): try substrings.
      if (hits.length > 0 || !terms.some((t) => /[\p{L}\p{N}]/u.test(t))) return hits;
    }
    const long = terms.filter((t) => [...t].length >= 3);
    const short = terms.filter((t) => [...t].length < 3);
    if (long.length > 0) return this.ftsQuery("nodes_fts_trigram", long, short, exclude, limit);
    return this.likeQuery(short, exclude, limit, -1, upto);
  }

  /**
   * The search's own catch-up never waits for the write lock: when another writer holds it the
   * search runs on the index as it is, and the background indexer adds the newest rows later. A
   * search on a turn's path is bounded by its own work.
   */
  private catchUpWithoutWaiting(): void {
    if (this.indexer.pending() === 0) return;
    const busy = this.db.pragma("busy_timeout", { simple: true }) as number;
    this.db.pragma("busy_timeout = 0");
    try {
      this.indexer.catchUp(SEARCH_CATCH_UP_SPAN);
    } catch (err) {
      if (!isBusyError(err)) throw err;
    } finally {
      this.db.pragma(`busy_timeout = ${busy}`);
    }
  }

  private ftsQuery(
    table: "nodes_fts" | "nodes_fts_trigram",
    terms: string[],
    likeTerms: string[],
    exclude: string | null,
    limit: number,
  ): SearchHit[] {
    const match = terms.map(quotePhrase).join(" ");
    const likes = likeTerms.map(() => " AND n.search_text LIKE ? ESCAPE '\\'").join("");
    const sql =
      `SELECT n.id, n.session_id, n.role, n.created_at, ` +
      `snippet(${table}, 0, '[', ']', '…', ${SNIPPET_TOKENS[table]}) AS snippet ` +
      `FROM ${table} JOIN nodes n ON n.seq = ${table}.rowid ` +
      `WHERE ${table} MATCH ?${likes} AND n.session_id IS NOT ? ORDER BY ${table}.rowid DESC LIMIT ?`;
    const rows = this.stmts.prepare<HitRow>(sql).all(match, ...likeTerms.map(likePattern), exclude, limit);
    const via = table === "nodes_fts" ? "words" : "trigram";
    return rows.map((r) => toHit(r, r.snippet, via));
  }

  /** Nodes whose seq lies in (aboveSeq, atMostSeq] holding every term, newest first. */
  private likeQuery(
    terms: string[],
    exclude: string | null,
    limit: number,
    aboveSeq = -1,
    atMostSeq = Number.MAX_SAFE_INTEGER,
  ): SearchHit[] {
    const likes = terms.map(() => "n.search_text LIKE ? ESCAPE '\\'").join(" AND ");
    const sql =
      "SELECT n.id, n.session_id, n.role, n.created_at, n.search_text AS snippet FROM nodes n " +
      `WHERE n.seq > ? AND n.seq <= ? AND ${likes} AND n.session_id IS NOT ? ORDER BY n.seq DESC LIMIT ?`;
    const rows = this.stmts
      .prepare<HitRow>(sql)
      .all(aboveSeq, atMostSeq, ...terms.map(likePattern), exclude, limit);
    return rows.map((r) => toHit(r, likeSnippet(r.snippet, terms[0] ?? ""), "like"));
  }
}

/** An FTS5 string literal: the term is matched as a phrase, whatever operators it contains. */
function quotePhrase(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function toHit(r: HitRow, snippet: string, via: SearchHit["via"]): SearchHit {
  return { sessionId: r.session_id, nodeId: r.id, snippet, role: r.role, createdAt: r.created_at, via };
}

/** The text around the first match, with the match in brackets like the FTS snippets. */
export function likeSnippet(text: string, term: string): string {
  const at = text.toLowerCase().indexOf(term.toLowerCase());
  if (at < 0) return text.slice(0, LIKE_CONTEXT * 2);
  let start = Math.max(0, at - LIKE_CONTEXT);
  let end = Math.min(text.length, at + term.length + LIKE_CONTEXT);
  // Never cut a surrogate pair in half (emoji, rare CJK).
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start -= 1;
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end += 1;
  return (
    (start > 0 ? "…" : "") +
    text.slice(start, at) +
    `[${text.slice(at, at + term.length)}]` +
    text.slice(at + term.length, end) +
    (end < text.length ? "…" : "")
  );
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
