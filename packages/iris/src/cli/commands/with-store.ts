// The store of the chosen profile, for commands that read or settle state without a model.

import type { Profile } from "@iris/host";
import { loadProfileOrExit } from "@iris/host";
import { openStore, type Store } from "@iris/store";
import type { GlobalFlags } from "../flags.js";

export function withStore(flags: GlobalFlags, fn: (store: Store, profile: Profile) => number): number {
  const loaded = loadProfileOrExit({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
  });
  if (!loaded.ok) {
    process.stderr.write(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  const store = openStore(loaded.profile.home.paths.db);
  try {
    return fn(store, loaded.profile);
  } finally {
    store.close();
  }
}
