// The one session look-up every front end uses (ARCHITECTURE.md "Process scope and session
// scope"): a reference is a full id, a short id (a unique tail of 6+ characters; ids are UUID v7,
// so their first characters are a shared timestamp and the last 8 are random), a unique prefix
// of 4+ characters, or a unique prefix of the short id (3+ characters: `9be1` for 9be1c3f0).
// Each is an indexed read, never a scan. A session that compression ended goes on in a child:
// the look-up follows the chain to the live one by the indexed parent link. An owner check makes
// another owner's session look exactly like a missing one (an API key, an ACP client, a chat).
import { COMPRESSED_END_REASON } from "@iris/agent";
import { type SessionRow, SHORT_ID_LENGTH, type Store, shortId } from "@iris/store";

export type SessionLookup =
  | { ok: true; row: SessionRow }
  | { ok: false; code: "not_found" | "ambiguous"; error: string };

export interface LookupOptions {
  /** Whether the caller may use this session (false: reported as not found). */
  owner?: (row: SessionRow) => boolean;
  /** Follow compression splits to the live session (default true). */
  follow?: boolean;
  /** How the error names the way to list sessions (CLI: "see: iris sessions list"). */
  listHint?: string;
}

/** How many matches a look-up reads at most (enough to name a few in the error). */
const MATCH_LIMIT = 6;
/**
 * How many it reads when other owners' sessions filled the first read: the caller's own could be
 * behind them (a shared store, a short prefix).
 */
const OWNER_READ_LIMIT = 500;

export async function findSession(
  store: Store,
  ref: string,
  opts: LookupOptions = {},
): Promise<SessionLookup> {
  const want = ref.trim();
  const owned = (r: SessionRow) => opts.owner?.(r) ?? true;
  const live = (r: SessionRow) => (opts.follow === false ? r : liveSessionOf(store, r));
  const exact = await store.findSession(want);
  if (exact && owned(exact)) return { ok: true, row: await live(exact) };
  const lower = want.toLowerCase();
  // In this order, each an indexed read; the first that names anyone decides.
  const reads: ((limit: number) => Promise<SessionRow[]>)[] = [];
  if (lower.length >= 6) reads.push((n) => store.sessionsWithTail(lower, n));
  if (lower.length >= 4) reads.push((n) => store.sessionsWithPrefix(lower, n));
  if (lower.length >= 3 && lower.length < SHORT_ID_LENGTH)
    reads.push((n) => store.sessionsWithShortIdPrefix(lower, n));
  for (const read of reads) {
    const page = await read(MATCH_LIMIT);
    let hits = page.filter(owned);
    if (opts.owner && page.length === MATCH_LIMIT && hits.length < 2)
      hits = (await read(OWNER_READ_LIMIT)).filter(owned).slice(0, MATCH_LIMIT);
    if (hits.length === 1) return { ok: true, row: await live(hits[0] as SessionRow) };
    if (hits.length > 1)
      return {
        ok: false,
        code: "ambiguous",
        error: `'${want}' matches ${hits.length >= MATCH_LIMIT ? `${MATCH_LIMIT - 1}+` : hits.length} sessions (${hits
          .slice(0, MATCH_LIMIT - 1)
          .map((s) => shortId(s.id))
          .join(", ")}${hits.length >= MATCH_LIMIT ? ", …" : ""}); give more of the id`,
      };
  }
  const hint = opts.listHint ? ` (${opts.listHint})` : "";
  return { ok: false, code: "not_found", error: `no session '${want}'${hint}` };
}

/** The session `row` continues as now: compression ends a session and goes on in a child. */
export async function liveSessionOf(store: Store, row: SessionRow): Promise<SessionRow> {
  let current = row;
  const seen = new Set<string>();
  while (current.endReason === COMPRESSED_END_REASON && !seen.has(current.id)) {
    seen.add(current.id);
    // The child holds the history under the same source (a subagent's source is "delegate").
    const source = current.source;
    const child = (await store.childSessions(current.id)).find((c) => c.source === source);
    if (!child) break;
    current = child;
  }
  return current;
}

/** A listed session and when it last changed (its end, else its newest message, else its start). */
export interface ListedSession {
  row: SessionRow;
  updatedAt: number;
}

/**
 * One page of a front end's live sessions, newest first: a conversation that compression moved
 * on is listed once, under its live child (an indexed page, not a scan of every session).
 */
export async function listLiveSessions(
  store: Store,
  opts: { source: string; cwd?: string; offset: number; limit: number },
): Promise<{ sessions: ListedSession[]; more: boolean }> {
  const rows = await store.sessionPage({ ...opts, limit: opts.limit + 1, notEndedBy: COMPRESSED_END_REASON });
  const sessions = await Promise.all(
    rows.slice(0, opts.limit).map(async (row) => {
      const leaf = row.activeLeafId ? await store.findNode(row.activeLeafId) : undefined;
      return { row, updatedAt: row.endedAt ?? leaf?.createdAt ?? row.startedAt };
    }),
  );
  return { sessions, more: rows.length > opts.limit };
}
