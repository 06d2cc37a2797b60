// `iris migrate`: brings the profile's store to this Iris's schema — its own tables and
// the front ends' table sets (the bin passes them: the CLI imports no other front end) — and says
// where each stands. Idempotent; on Postgres safe when several machines run it at once (an
// advisory lock lets one migrate while the others wait and then find the work done). SQLite
// migrates its own tables on every open already, and a front end its set when it starts.
import { StoredRecords, type TableSet, type TableSetVersion } from "@iris/host";
import type { GlobalFlags } from "../flags.js";
import { profileOrExit } from "./with-records.js";

export async function migrateCommand(
  flags: GlobalFlags,
  tableSets: readonly TableSet[] = [],
): Promise<number> {
  const profile = profileOrExit(flags);
  if (typeof profile === "number") return profile;
  const { backend, schema } = profile.config.store;
  let records: StoredRecords;
  try {
    records = await StoredRecords.open(profile, { readOnlyFallback: false });
  } catch (err) {
    process.stderr.write(`iris: ${(err as Error).message}\n`);
    return 1;
  }
  try {
    const { version, latest } = await records.schemaVersion();
    const where = backend === "postgres" ? `postgres schema ${schema}` : `sqlite ${profile.home.paths.db}`;
    process.stdout.write(
      `store: ${where} at schema version ${version}${version === latest ? " (the newest)" : ""}\n`,
    );
    let current = version === latest;
    for (const set of tableSets) {
      let v: TableSetVersion;
      try {
        v = await records.migrateTables(set);
      } catch (err) {
        process.stderr.write(`iris: ${(err as Error).message}\n`);
        current = false;
        continue;
      }
      process.stdout.write(
        `${set.owner}'s tables at version ${v.version}${v.version === v.latest ? " (the newest)" : ""}\n`,
      );
      current &&= v.version === v.latest;
    }
    return current ? 0 : 1;
  } finally {
    await records.close();
  }
}
