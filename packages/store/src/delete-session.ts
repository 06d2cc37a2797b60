// Deleting one session (`iris sessions delete`): its nodes (the search index follows through the
// delete trigger), usage rows, effect receipts, active time and lease, in one transaction. A session that another
// session continues (a compression split) or whose nodes another session points at is refused,
// naming those sessions: deleting it would break their history.
import type { Database } from "./driver.js";
import { StoreError } from "./errors.js";

export function deleteSession(db: Database, id: string): void {
  const exists = db.prepare("SELECT 1 FROM sessions WHERE id = ?").get(id);
  if (!exists) throw new StoreError("not_found", `no session ${id}`);
  const dependants = db
    .prepare(
      "SELECT id FROM sessions WHERE parent_session_id = @id UNION " +
        "SELECT DISTINCT n.session_id FROM nodes n JOIN nodes p ON p.id = n.parent_id OR p.id = n.expands_to " +
        "WHERE p.session_id = @id AND n.session_id <> @id",
    )
    .all({ id }) as { id: string }[];
  if (dependants.length)
    throw new StoreError(
      "invalid_input",
      `session ${id} is continued by ${dependants.map((d) => d.id).join(", ")}; delete ${dependants.length > 1 ? "those" : "that one"} first`,
    );
  db.transaction(() => {
    db.prepare("UPDATE sessions SET active_leaf_id = NULL WHERE id = ?").run(id);
    db.prepare("DELETE FROM effects WHERE session_id = ?").run(id);
    db.prepare("DELETE FROM usage WHERE session_id = ?").run(id);
    // Per-session rows of migration 0005 (its active time, a stale turn lease).
    db.prepare("DELETE FROM session_active_time WHERE session_id = ?").run(id);
    db.prepare("DELETE FROM session_leases WHERE session_id = ?").run(id);
    db.prepare("DELETE FROM nodes WHERE session_id = ?").run(id);
    db.prepare("DELETE FROM sessions WHERE id = ?").run(id);
  })();
}
