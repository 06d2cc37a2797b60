// The store for commands that only read (`sessions list/show`, `usage`, `context`): the profile's
// (store: in config.yaml). A SQLite one is opened as usual, or read-only when the home cannot be
// written (a read-only home, another user's files), so looking at the sessions never needs write
// access.
import { openProfileStore, type Profile, type Store, StoreError } from "@iris/host";

const NEEDS_WRITE = new Set(["db_readonly", "db_unopenable", "db_io"]);

export async function openStoreForReading(profile: Profile): Promise<Store> {
  try {
    return await openProfileStore(profile);
  } catch (err) {
    if (
      profile.config.store.backend !== "sqlite" ||
      !(err instanceof StoreError) ||
      !NEEDS_WRITE.has(err.code)
    )
      throw err;
    return openProfileStore(profile, { readonly: true });
  }
}
