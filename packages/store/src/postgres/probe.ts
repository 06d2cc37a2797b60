// What `iris doctor` asks of a Postgres store without changing it: does the server answer, which
// schema version does Iris's schema have, is pg_trgm there (search needs it).
import { describeServer, pgError } from "./errors.js";
import { PG_LATEST_VERSION, pgSchemaVersion } from "./migrations.js";
import { openPool, type PostgresOptions, schemaOf } from "./pool.js";

export interface PostgresProbe {
  /** user@host:port/database, never the password. */
  server: string;
  schema: string;
  /** Why the server could not be used; the rest is unknown then. */
  error?: string;
  /** The schema's version (0: not migrated yet) and the newest this Iris knows. */
  version?: number;
  latest: number;
  /** Whether the pg_trgm extension is installed in the database. */
  trigram?: boolean;
}

export async function probePostgres(options: PostgresOptions): Promise<PostgresProbe> {
  const server = describeServer(options.url);
  const out: PostgresProbe = { server, schema: schemaOf(options), latest: PG_LATEST_VERSION };
  const { pool, schema } = await openPool({ ...options, max: 1 });
  try {
    out.version = await pgSchemaVersion(pool, schema);
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_trgm'",
    );
    out.trigram = (rows[0]?.n ?? 0) > 0;
  } catch (err) {
    const e = pgError(err, server);
    out.error = e instanceof Error ? e.message : String(e);
  } finally {
    await pool.end().catch(() => {});
  }
  return out;
}
