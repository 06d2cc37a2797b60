// The profile's store as config.yaml's `store:` chooses: state.db in the profile
// (SQLite, the default) or a schema of a PostgreSQL database shared by many processes and
// machines. The Postgres URL comes from the environment or the profile's .env, never config.yaml,
// and is a secret: it never shows in a log or an error (errors name user@host:port/database).
import { registerSecret } from "@iris/llm";
import { openPostgresStore, openStore, type PostgresOptions, type Store, StoreError } from "@iris/store";
import type { Profile } from "../config/index.js";

export interface ProfileStoreOptions {
  /** Open for reading only where the engine has such a mode (SQLite: a read-only home). */
  readonly?: boolean;
}

/** Where a Postgres profile connects: the URL from `store.url_env`, and the schema. */
export function postgresOptionsOf(profile: Pick<Profile, "config" | "env" | "home">): PostgresOptions {
  const { url_env: urlEnv, schema } = profile.config.store;
  const url = profile.env[urlEnv];
  if (!url) {
    // IRIS_* variables are read from the environment only (.env cannot change where Iris starts).
    const where = urlEnv.startsWith("IRIS_")
      ? "the environment"
      : `the environment or ${profile.home.paths.env}`;
    throw new StoreError(
      "db_unreachable",
      `store.backend is postgres, but ${urlEnv} is not set: put postgres://user:password@host:port/database in ${where}`,
    );
  }
  registerSecret(url);
  const password = safePassword(url);
  if (password) registerSecret(password);
  return { url, schema };
}

function safePassword(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}

export async function openProfileStore(
  profile: Pick<Profile, "config" | "env" | "home">,
  opts: ProfileStoreOptions = {},
): Promise<Store> {
  if (profile.config.store.backend === "postgres") return openPostgresStore(postgresOptionsOf(profile));
  return openStore(profile.home.paths.db, opts.readonly ? { readonly: true } : {});
}
