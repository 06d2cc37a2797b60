// The stored records of the chosen profile (host's StoredRecords: its store, SQLite or Postgres),
// for commands that read or settle state without a model.

import type { Profile } from "@iris/host";
import { loadProfileOrExit, StoredRecords } from "@iris/host";
import type { GlobalFlags } from "../flags.js";

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

export function withProfile<R extends number | Promise<number>>(
  flags: GlobalFlags,
  fn: (profile: Profile) => R,
  opts: { readOnly?: boolean } = {},
): R | number {
  const profile = profileOrExit(flags, opts);
  return typeof profile === "number" ? profile : fn(profile);
}

/** The profile's records, for commands that read or settle state (they run beside a config error). */
export async function withRecords(
  flags: GlobalFlags,
  fn: (records: StoredRecords, profile: Profile) => number | Promise<number>,
): Promise<number> {
  return withProfile(flags, (profile) => readRecords(profile, (records) => fn(records, profile)), {
    readOnly: true,
  });
}

/** Opens the profile's records for `fn` and closes them after; a damaged state.db is named. */
export async function readRecords(
  profile: Profile,
  fn: (records: StoredRecords) => number | Promise<number>,
): Promise<number> {
  const records = await StoredRecords.open(profile);
  try {
    return await fn(records);
  } catch (err) {
    // A damaged page shows only when a query reaches it: name the file and the way out.
    if (!String((err as { code?: unknown }).code ?? "").startsWith("SQLITE_CORRUPT")) throw err;
    process.stderr.write(
      `iris: ${profile.home.paths.db} is damaged (${(err as Error).message}); iris doctor --repair keeps a copy and recovers what can be read\n`,
    );
    return 1;
  } finally {
    await records.close();
  }
}
