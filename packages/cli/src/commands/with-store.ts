// The store of the chosen profile, for commands that read or settle state without a model.

import type { Profile, Store } from "@iris/host";
import { loadProfileOrExit } from "@iris/host";
import type { GlobalFlags } from "../flags.js";
import { openStoreForReading } from "./read-store.js";

/**
 * The chosen profile (config and .env), or its error on stderr and the exit code. `readOnly`
 * commands run on a config with errors: the keys it rejects are left out, each with a warning.
 */
export function profileOrExit(flags: GlobalFlags, opts: { readOnly?: boolean } = {}): Profile | number {
  const loaded = loadProfileOrExit({
    env: process.env,
    ...(flags.profile ? { profile: flags.profile } : {}),
    ...(opts.readOnly ? { lenient: true } : {}),
  });
  if (!loaded.ok) {
    process.stderr.write(`${loaded.message}\n`);
    return loaded.exitCode;
  }
  if (opts.readOnly) for (const w of loaded.profile.warnings) process.stderr.write(`iris: warning: ${w}\n`);
  return loaded.profile;
}

export function withProfile(
  flags: GlobalFlags,
  fn: (profile: Profile) => number,
  opts: { readOnly?: boolean } = {},
): number {
  const profile = profileOrExit(flags, opts);
  return typeof profile === "number" ? profile : fn(profile);
}

/** The profile's store, for commands that read or settle state (they run beside a config error). */
export function withStore(flags: GlobalFlags, fn: (store: Store, profile: Profile) => number): number {
  return withProfile(
    flags,
    (profile) => {
      const store = openStoreForReading(profile.home.paths.db);
      try {
        return fn(store, profile);
      } catch (err) {
        // A damaged page shows only when a query reaches it: name the file and the way out.
        if (!String((err as { code?: unknown }).code ?? "").startsWith("SQLITE_CORRUPT")) throw err;
        process.stderr.write(
          `iris: ${profile.home.paths.db} is damaged (${(err as Error).message}); iris doctor --repair keeps a copy and recovers what can be read\n`,
        );
        return 1;
      } finally {
        store.close();
      }
    },
    { readOnly: true },
  );
}
