// How the CLI names sessions: through host's one look-up (session-finder.ts: indexed reads, no
// scan). Ids are time-ordered UUIDs (UUID v7), so their first 8 characters are a timestamp shared by every session started
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
export type Sessions = Pick<StoredSessions, "lookUp">;

/** The session `ref` names, as stored (`follow`: the live one a compression moved it to). */
export async function resolveSession(
  sessions: Sessions,
  ref: string,
  follow = false,
): Promise<SessionLookup> {
  const found = await sessions.lookUp(ref, { follow, listHint: "see: iris sessions list" });
  return found.ok ? found : { ok: false, error: found.error };
}

/** The row `ref` names, or undefined when it names none or several (commands that only say "no session"). */
export async function sessionRowOf(sessions: Sessions, ref: string): Promise<SessionRow | undefined> {
  const found = await resolveSession(sessions, ref);
  return found.ok ? found.row : undefined;
}
