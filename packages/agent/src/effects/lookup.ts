// Reads of the receipt table the store does not offer yet (by logical op id, and every receipt).
// Only ids are read here; the rows themselves come through Store.getEffect, so the row shape
// stays the store's business.
import type { EffectRow, Store } from "@iris/store";

export function findEffectByOp(store: Store, logicalOpId: string): EffectRow | undefined {
  const hit = store.db
    .prepare<{ id: string }>("SELECT id FROM effects WHERE logical_op_id = ?")
    .get(logicalOpId);
  return hit ? store.getEffect(hit.id) : undefined;
}

/** Every receipt, oldest first (for `iris effects list --all`). */
export function listAllEffects(store: Store, limit = 1000): EffectRow[] {
  return store.db
    .prepare<{ id: string }>("SELECT id FROM effects ORDER BY created_at DESC, rowid DESC LIMIT ?")
    .all(limit)
    .map((r) => store.getEffect(r.id))
    .reverse();
}

/** An effect by full id or by a unique prefix of at least 4 characters. */
export function findEffect(store: Store, idOrPrefix: string): EffectRow | undefined {
  const exact = store.db.prepare<{ id: string }>("SELECT id FROM effects WHERE id = ?").get(idOrPrefix);
  if (exact) return store.getEffect(exact.id);
  if (idOrPrefix.length < 4) return undefined;
  const hits = store.db
    .prepare<{ id: string }>("SELECT id FROM effects WHERE substr(id, 1, ?) = ? LIMIT 2")
    .all(idOrPrefix.length, idOrPrefix);
  return hits.length === 1 && hits[0] ? store.getEffect(hits[0].id) : undefined;
}
