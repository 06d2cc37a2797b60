// State kept in this process's memory for processes that keep nothing in the profile's store (a
// batch run: its conversations are JSONL logs, D5). Several IrisProcess scopes share one, so what
// they share besides (route cooldowns) is seen by all; it ends when the last of them has closed.
// Host opens the store under it; a front end holds only this handle.
import { openStore, type Store } from "@iris/store";

/** Longer than any batch run: the background search indexer never runs on this store. */
const NO_INDEX_DELAY_MS = 24 * 3600 * 1000;

const stores = new WeakMap<InMemoryState, Store>();

export class InMemoryState {
  private constructor() {}

  static open(): InMemoryState {
    const state = new InMemoryState();
    stores.set(state, openStore(":memory:", { indexDelayMs: NO_INDEX_DELAY_MS }));
    return state;
  }

  /** Closes the store under it: after every process on it has closed. */
  close(): Promise<void> {
    return storeOf(this).close();
  }
}

/** The store under an in-memory state (host's own: IrisProcess.open). */
export function storeOf(state: InMemoryState): Store {
  const store = stores.get(state);
  if (!store) throw new Error("not an InMemoryState");
  return store;
}
