// How the CLI names sessions: through host's one look-up (session-finder.ts). Ids are time-ordered
// UUIDs (UUID v7), so their first 8 characters are a timestamp shared by every session started
// within about a minute; the short id shown is the last 8 characters instead, which are random. A
// reference typed by the user may be the full id, the short id (any unique tail of 6+ characters),
// a unique prefix of 4+ characters, or a unique prefix of the short id (3+ characters:
// `--resume 9be1` for 9be1c3f0).
import type { SessionRow, StoredSessions } from "@iris/host";
import { shortId } from "@iris/host";

export { shortId };

export type SessionLookup = { ok: true; row: SessionRow } | { ok: false; error: string };

/** Where sessions are looked up: the chat's own session (Session.stored) or the profile's records
 * a command opened (StoredRecords). */
export type Sessions = Pick<StoredSessions, "lookUp" | "recent">;

/** The session `ref` names, as stored (`follow`: the live one a compression moved it to). */
export async function resolveSession(
  sessions: Sessions,
  ref: string,
  follow = false,
): Promise<SessionLookup> {
  const found = await sessions.lookUp(ref, { follow, listHint: "see: iris sessions list" });
  if (found.ok) return found;
  const byShort = await byShortIdPrefix(sessions, ref.trim().toLowerCase());
  return byShort ?? { ok: false, error: found.error };
}

/** A short id's first characters name a session too; the look-up indexes tails, so this scans. */
async function byShortIdPrefix(sessions: Sessions, want: string): Promise<SessionLookup | undefined> {
  if (want.length < 3 || want.length >= 8) return undefined;
  const hits = (await sessions.recent({ limit: 1_000_000 })).filter((s) =>
    shortId(s.id).toLowerCase().startsWith(want),
  );
  if (hits.length === 1) return { ok: true, row: hits[0]! };
  if (hits.length === 0) return undefined;
  const named = hits.slice(0, 5).map((s) => shortId(s.id));
  return {
    ok: false,
    error: `'${want}' matches ${hits.length} sessions (${named.join(", ")}${hits.length > 5 ? ", …" : ""}); give more of the id`,
  };
}
