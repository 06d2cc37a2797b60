// The connection pool of the Postgres engine. `pg` is loaded on first use (a SQLite profile never
// pays for it), every connection works in the profile's schema, and 64-bit integers come back as
// numbers (counts, token totals and times in ms all fit a double exactly).
import type { Pool, PoolClient, PoolConfig } from "pg";
import { StoreError } from "../errors.js";

export type { Pool, PoolClient };

/** A schema name used as is in SQL: lower-case letters, digits and `_`, as Postgres folds them. */
const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

export interface PostgresOptions {
  /** postgres://user:password@host:port/database (the value of `store.url_env`). */
  url: string;
  /** Where Iris's tables live (default `iris`). */
  schema?: string;
  /** Connections at most (default 10). */
  max?: number;
  /** How long a statement may run, in ms (a turn's store calls are bounded: default 30 s). */
  statementTimeoutMs?: number;
}

export function schemaOf(options: PostgresOptions): string {
  const schema = options.schema ?? "iris";
  if (!SCHEMA.test(schema))
    throw new StoreError(
      "invalid_input",
      `store.schema ${JSON.stringify(schema)}: lower-case letters, digits and _ only, starting with a letter or _`,
    );
  return schema;
}

const INT8_OID = 20;

export async function openPool(options: PostgresOptions): Promise<{ pool: Pool; schema: string }> {
  const schema = schemaOf(options);
  // `pg` is CommonJS: its module object carries the classes on `default` when imported from ESM.
  const mod = await import("pg");
  const pg = (mod as unknown as { default?: typeof mod }).default ?? mod;
  const config: PoolConfig = {
    connectionString: options.url,
    max: options.max ?? 10,
    options: `-c search_path=${schema}`,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    connectionTimeoutMillis: 10_000,
    application_name: "iris",
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
    },
  };
  const pool = new pg.Pool(config);
  // An idle connection the server dropped must not crash the process: the next query reconnects.
  pool.on("error", () => {});
  return { pool, schema };
}

/** Runs `fn` in one transaction on one connection: committed when it returns, rolled back on a throw. */
export async function inTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A connection lost while checked out also emits an error event: the query's rejection says it.
  const ignore = () => {};
  client.on("error", ignore);
  try {
    await client.query("BEGIN");
    const out = await fn(client);
    await client.query("COMMIT");
    return out;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.off("error", ignore);
    client.release();
  }
}
