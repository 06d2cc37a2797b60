// The store of the chosen profile, for commands that read or settle state without a model.
import type { Store } from "@iris/store";
import { loadProfileOrExit } from "../../app/boot.js";
import type { Profile } from "../../config/index.js";
import type { GlobalFlags } from "../main.js";
import { openStoreForReading } from "./read-store.js";

export function withStore(flags: GlobalFlags, fn: (store: Store, profile: Profile) => number): number {
  const loaded = loadProfileOrExit({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
  });
  if (!loaded.ok) {
    process.stderr.write(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  const store = openStoreForReading(loaded.profile.home.paths.db);
  try {
    return fn(store, loaded.profile);
  } finally {
    store.close();
  }
}
