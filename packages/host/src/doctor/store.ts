// `iris doctor` on a Postgres store (issue 30): the server answers (with the URL's login), the
// schema has the newest version (else `iris migrate`), and pg_trgm is installed (search needs it).
// A SQLite store is checked by history.ts (the file, then every session's history).
import { probePostgres } from "@iris/store";
import { postgresOptionsOf } from "../app/profile-store.js";
import type { Profile } from "../config/index.js";
import type { Finding } from "./types.js";

export async function checkPostgresStore(
  profile: Pick<Profile, "config" | "env" | "home">,
): Promise<Finding[]> {
  const subject = "store (postgres)";
  let options: ReturnType<typeof postgresOptionsOf>;
  try {
    options = postgresOptionsOf(profile);
  } catch (err) {
    return [
      {
        status: "fail",
        subject,
        message: (err as Error).message,
        fix: `set ${profile.config.store.url_env}`,
      },
    ];
  }
  const p = await probePostgres(options);
  if (p.error)
    return [
      {
        status: "fail",
        subject,
        message: `cannot connect: ${p.error}`,
        fix: `check that the server runs and that ${profile.config.store.url_env} has the right host, port, user and password`,
      },
    ];
  const out: Finding[] = [{ status: "ok", subject, message: `connected to ${p.server}, schema ${p.schema}` }];
  if (p.version === undefined || p.version < p.latest)
    out.push({
      status: p.version ? "warn" : "fail",
      subject: "store schema",
      message: `schema ${p.schema} has version ${p.version ?? 0}, this Iris needs ${p.latest}`,
      fix: "iris migrate (safe to run from several machines at once)",
    });
  else if (p.version > p.latest)
    out.push({
      status: "fail",
      subject: "store schema",
      message: `schema ${p.schema} has version ${p.version}, newer than this Iris (${p.latest})`,
      fix: "upgrade Iris on this machine",
    });
  else out.push({ status: "ok", subject: "store schema", message: `version ${p.version} (the newest)` });
  out.push(
    p.trigram
      ? { status: "ok", subject: "pg_trgm", message: "installed (substring search in any language)" }
      : {
          status: p.version ? "fail" : "warn",
          subject: "pg_trgm",
          message: "the pg_trgm extension is not installed: search needs it",
          fix: "iris migrate installs it (CREATE EXTENSION pg_trgm; the user needs CREATE on the database)",
        },
  );
  return out;
}
