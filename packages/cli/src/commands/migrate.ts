// `iris migrate` (issue 30): brings the profile's store to this Iris's schema and says where it
// stands. Idempotent; on Postgres safe when several machines run it at once (an advisory lock
// lets one migrate while the others wait and then find the work done). SQLite migrates on every
// open already: there it only reports.
import { openProfileStore } from "@iris/host";
import type { GlobalFlags } from "../flags.js";
import { profileOrExit } from "./with-store.js";

export async function migrateCommand(flags: GlobalFlags): Promise<number> {
  const profile = profileOrExit(flags);
  if (typeof profile === "number") return profile;
  const { backend, schema } = profile.config.store;
  let store: Awaited<ReturnType<typeof openProfileStore>>;
  try {
    store = await openProfileStore(profile);
  } catch (err) {
    process.stderr.write(`iris: ${(err as Error).message}\n`);
    return 1;
  }
  try {
    const { version, latest } = await store.schemaVersion();
    const where = backend === "postgres" ? `postgres schema ${schema}` : `sqlite ${profile.home.paths.db}`;
    process.stdout.write(
      `store: ${where} at schema version ${version}${version === latest ? " (the newest)" : ""}\n`,
    );
    return version === latest ? 0 : 1;
  } finally {
    await store.close();
  }
}
