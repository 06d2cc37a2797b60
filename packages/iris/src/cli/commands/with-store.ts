// The store of the chosen profile, for commands that read or settle state without a model.

import type { Profile, Store } from "@iris/host";
import { loadProfileOrExit } from "@iris/host";
import type { GlobalFlags } from "../flags.js";
import { openStoreForReading } from "./read-store.js";

/** The chosen profile (config and .env), or its error on stderr and the exit code. */
export function withProfile(flags: GlobalFlags, fn: (profile: Profile) => number): number {
  const loaded = loadProfileOrExit({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
  });
  if (!loaded.ok) {
    process.stderr.write(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  return fn(loaded.profile);
}

export function withStore(flags: GlobalFlags, fn: (store: Store, profile: Profile) => number): number {
  return withProfile(flags, (profile) => {
    const store = openStoreForReading(profile.home.paths.db);
    try {
      return fn(store, profile);
    } finally {
      store.close();
    }
  });
}
