// The store for commands that only read (`sessions list/show`, `usage`, `context`): opened as
// usual, or read-only when the home cannot be written (a read-only home, another user's files),
// so looking at the sessions never needs write access.
import { openStore, type Store, StoreError } from "@iris/host";

const NEEDS_WRITE = new Set(["db_readonly", "db_unopenable", "db_io"]);

export function openStoreForReading(path: string): Store {
  try {
    return openStore(path);
  } catch (err) {
    if (!(err instanceof StoreError) || !NEEDS_WRITE.has(err.code)) throw err;
    return openStore(path, { readonly: true });
  }
}
