// Receipt look-ups the effects code and `iris effects` share; the store owns the queries.
import type { EffectRow, Store } from "@iris/store";

export function findEffectByOp(store: Store, logicalOpId: string): Promise<EffectRow | undefined> {
  return store.findEffectByOp(logicalOpId);
}

/** Every receipt, oldest first (for `iris effects list --all`). */
export function listAllEffects(store: Store, limit = 1000): Promise<EffectRow[]> {
  return store.listEffects(limit);
}

/** An effect by full id or by a unique prefix of at least 4 characters. */
export function findEffect(store: Store, idOrPrefix: string): Promise<EffectRow | undefined> {
  return store.findEffect(idOrPrefix);
}
