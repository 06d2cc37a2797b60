// Search on Postgres (SPEC D2, U7), answering like the SQLite engine's (search.ts): a word query
// matches whole words first, then substrings (a piece of a word); Korean, Japanese and Chinese
// match by substring. One pg_trgm GIN index serves both (it indexes regular expressions and
// ILIKE); every term must match, newest first. User input is escaped, never interpreted.
import { CJK, likeSnippet, type SearchHit, type SearchOptions } from "../search.js";
import type { Db } from "./sessions.js";

interface HitRow {
  id: string;
  session_id: string;
  role: string | null;
  created_at: number;
  search_text: string;
}

export async function searchNodes(db: Db, query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
  const limit = Math.max(1, Math.min(options.limit ?? 20, 1000));
  const terms = query
    .trim()
    .split(/\s+/u)
    .filter((t) => t.length > 0)
    // Postgres text holds no NUL: such a term can match nothing.
    .map((t) => t.replaceAll("\u0000", ""));
  if (terms.length === 0 || terms.some((t) => t === "")) return [];
  const exclude = options.excludeSessionId ?? null;
  const substring = options.substring === true || terms.some((t) => CJK.test(t));
  if (!substring) {
    const hits = await matching(db, terms, "words", exclude, limit);
    // A word search that finds nothing may be a piece of a word ("ripgr"): try substrings.
    if (hits.length > 0 || !terms.some((t) => /[\p{L}\p{N}]/u.test(t))) return hits;
  }
  const via = terms.some((t) => [...t].length >= 3) ? "trigram" : "like";
  return matching(db, terms, via, exclude, limit);
}

async function matching(
  db: Db,
  terms: string[],
  via: SearchHit["via"],
  exclude: string | null,
  limit: number,
): Promise<SearchHit[]> {
  const words = via === "words";
  const clauses = terms.map((_, i) => `search_text ${words ? "~*" : "ILIKE"} $${i + 3}`).join(" AND ");
  const { rows } = await db.query<HitRow>(
    `SELECT id, session_id, role, created_at, search_text FROM nodes WHERE ${clauses} ` +
      "AND ($1::text IS NULL OR session_id <> $1) ORDER BY seq DESC LIMIT $2",
    [exclude, limit, ...terms.map(words ? wordPattern : substringPattern)],
  );
  return rows.map((r) => ({
    sessionId: r.session_id,
    nodeId: r.id,
    snippet: likeSnippet(r.search_text, terms[0] ?? ""),
    role: r.role,
    createdAt: r.created_at,
    via,
  }));
}

/** A whole word, case-insensitively: `\m` and `\M` are Postgres's word boundaries. */
function wordPattern(term: string): string {
  return `\\m${term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\M`;
}

function substringPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
