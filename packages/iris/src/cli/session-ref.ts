// How the CLI names sessions: through host's one look-up (session-finder.ts). Ids are time-ordered
// UUIDs (UUID v7), so their first 8 characters are a timestamp shared by every session started
// within about a minute; the short id shown is the last 8 characters instead, which are random. A
// reference typed by the user may be the full id, the short id (any unique tail of 6+ characters)
// or a unique prefix of 4+ characters.
import { findSession, type SessionRow, type Store, shortId } from "@iris/host";

export { shortId };

export type SessionLookup = { ok: true; row: SessionRow } | { ok: false; error: string };

/** The session `ref` names, as stored (`follow`: the live one a compression moved it to). */
export function resolveSession(store: Store, ref: string, follow = false): SessionLookup {
  const found = findSession(store, ref, { follow, listHint: "see: iris sessions list" });
  return found.ok ? found : { ok: false, error: found.error };
}
