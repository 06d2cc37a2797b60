// How the CLI names sessions. Ids are time-ordered UUIDs (UUID v7), so their first 8 characters
// are a timestamp shared by every session started within about a minute; the short id shown is
// the last 8 characters instead, which are random. A reference typed by the user may be the full
// id, the short id (any unique tail of 6+ characters), a unique prefix of the short id (3+
// characters: `--resume 9be1` for 9be1c3f0) or a unique prefix of the full id (4+ characters).
import { type SessionRow, type Store, shortId } from "@iris/store";

export { shortId };

export type SessionLookup = { ok: true; row: SessionRow } | { ok: false; error: string };

export function resolveSession(store: Store, ref: string): SessionLookup {
  const want = ref.trim();
  const exact = store.findSession(want);
  if (exact) return { ok: true, row: exact };
  const all = store.listSessions({ limit: 1_000_000 });
  const lower = want.toLowerCase();
  const bySuffix = lower.length >= 6 ? all.filter((s) => s.id.toLowerCase().endsWith(lower)) : [];
  const byShortPrefix =
    lower.length >= 3 && lower.length < 8
      ? all.filter((s) => shortId(s.id).toLowerCase().startsWith(lower))
      : [];
  const byPrefix = lower.length >= 4 ? all.filter((s) => s.id.toLowerCase().startsWith(lower)) : [];
  for (const hits of [bySuffix, byShortPrefix, byPrefix]) {
    if (hits.length === 1) return { ok: true, row: hits[0]! };
    if (hits.length > 1)
      return {
        ok: false,
        error: `'${want}' matches ${hits.length} sessions (${hits
          .slice(0, 5)
          .map((s) => shortId(s.id))
          .join(", ")}${hits.length > 5 ? ", …" : ""}); give more of the id`,
      };
  }
  return { ok: false, error: `no session '${want}' (see: iris sessions list)` };
}
