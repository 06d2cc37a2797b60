// Which store each IrisProcess runs on, for tests only (@iris/host/testing): the process keeps it
// private, so a front end cannot reach it, while a test can still look at what was stored.
import type { Store } from "@iris/store";

const stores = new WeakMap<object, Store>();

export function registerProcessStore(process: object, store: Store): void {
  stores.set(process, store);
}

export function processStore(process: object): Store {
  const store = stores.get(process);
  if (!store) throw new Error("not an open IrisProcess");
  return store;
}
