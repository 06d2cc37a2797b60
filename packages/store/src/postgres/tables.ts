// Table sets on the Postgres engine: migrated under the database's migration lock (the one the
// engine's own migrations take) in one transaction each, and reached through a port over the
// store's pool in the store's schema. Driver errors leave as StoreErrors naming the server.
import { StoreError } from "../errors.js";
import {
  checkTableSet,
  type LockSession,
  type PostgresQuery,
  type PostgresTables,
  type QueryResult,
  setTooNew,
  TABLE_SET_VERSIONS,
  type TableSet,
  type TableSetVersion,
} from "../tables/table-set.js";
import { pgError } from "./errors.js";
import { underMigrationLock } from "./migrations.js";
import { inTransaction, type Pool, type PoolClient } from "./pool.js";

type Queryable = Pick<Pool, "query">;

async function recordedVersion(db: Queryable, schema: string, owner: string): Promise<number> {
  const { rows } = await db.query<{ v: number | null }>(
    "SELECT CASE WHEN to_regclass($1) IS NULL THEN NULL ELSE 0 END AS v",
    [`${schema}.${TABLE_SET_VERSIONS}`],
  );
  if (rows[0]?.v === null) return 0;
  const found = await db.query<{ v: number | null }>(
    `SELECT max(version) AS v FROM ${schema}.${TABLE_SET_VERSIONS} WHERE owner = $1`,
    [owner],
  );
  return found.rows[0]?.v ?? 0;
}

export async function pgTablesVersion(pool: Pool, schema: string, set: TableSet): Promise<TableSetVersion> {
  return { version: await recordedVersion(pool, schema, set.owner), latest: checkTableSet(set) };
}

/** Applies what `set` lacks: nothing (and no lock) when it is current already. */
export async function migratePgTables(pool: Pool, schema: string, set: TableSet): Promise<void> {
  const latest = checkTableSet(set);
  const where = `the Postgres schema ${schema}`;
  const seen = await recordedVersion(pool, schema, set.owner);
  if (seen > latest) throw setTooNew(set, seen, latest, where);
  if (seen === latest) return;
  await underMigrationLock(pool, async (client) => {
    const current = await recordedVersion(client, schema, set.owner);
    if (current >= latest) return;
    await client.query("BEGIN");
    try {
      await client.query(`SET LOCAL search_path = ${schema}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${TABLE_SET_VERSIONS} (owner TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL, applied_at BIGINT NOT NULL, PRIMARY KEY (owner, version))`,
      );
      for (const m of set.postgres) {
        if (m.version <= current) continue;
        await client.query(m.sql);
        await client.query(
          `INSERT INTO ${TABLE_SET_VERSIONS} (owner, version, name, applied_at) VALUES ($1, $2, $3, $4)`,
          [set.owner, m.version, m.name, Date.now()],
        );
      }
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      throw new StoreError(
        "migration_failed",
        `${set.owner}'s tables in ${where} could not be brought to version ${latest} (nothing was changed): ${(err as Error).message}`,
      );
    }
  });
}

/** The lock sessions' connections, ended when the store closes (each entry destroys one). */
export type LockSessions = Set<() => void>;

/**
 * A connection kept out of the pool for advisory locks (two keys: the schema's, the name's; a
 * namespace apart from the one-key migration lock). Its locks live as long as it does: a holder
 * that dies frees them all at once, when the server sees its connection end.
 */
async function lockSession(
  pool: Pool,
  schema: string,
  server: string,
  registry: LockSessions,
): Promise<LockSession> {
  const client = await pool.connect();
  let closed = false;
  let onLost: (err: Error) => void = () => {};
  const lost = new Promise<Error>((resolve) => {
    onLost = resolve;
  });
  const drop = (err: Error) => {
    if (!closed) onLost(new Error(`the advisory locks were lost with their connection: ${err.message}`));
  };
  const onError = (err: Error) => drop(err);
  const onEnd = () => drop(new Error("the connection ended"));
  client.on("error", onError);
  client.on("end", onEnd);
  const destroy = () => {
    registry.delete(destroy);
    drop(new Error("the store was closed"));
    closed = true;
    client.release(true);
  };
  registry.add(destroy);
  // A holder whose machine dies sends no FIN: the server's keepalives find it within about 25 s
  // (the OS default is hours), so its locks are free for the others that soon.
  await client
    .query("SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3")
    .catch((err: unknown) => {
      destroy();
      throw pgError(err, server);
    });
  const keys = (name: string) => [`iris:${schema}`, name];
  const run = async <Row>(sql: string, name: string): Promise<Row | undefined> => {
    if (closed) throw new StoreError("db_io", `the lock session on ${server} is closed`);
    try {
      return (await client.query(sql, keys(name))).rows[0] as Row | undefined;
    } catch (err) {
      throw pgError(err, server);
    }
  };
  return {
    lost,
    async tryLock(name) {
      const row = await run<{ held: boolean }>(
        "SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS held",
        name,
      );
      return row?.held === true;
    },
    async unlock(name) {
      await run("SELECT pg_advisory_unlock(hashtext($1), hashtext($2))", name);
    },
    async close() {
      if (closed) return;
      closed = true;
      registry.delete(destroy);
      client.off("error", onError);
      client.off("end", onEnd);
      // Ended, not returned to the pool: its locks go with it.
      client.release(true);
    },
  };
}

/** The port over the pool; `server` (user@host:port/database) names the server in errors. */
export function pgTables(pool: Pool, server: string, schema: string, locks: LockSessions): PostgresTables {
  const on = (db: Queryable | PoolClient): PostgresQuery => ({
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      try {
        const r = await db.query(sql, params as unknown[]);
        return { rows: r.rows as Row[], rowCount: r.rowCount ?? 0 };
      } catch (err) {
        throw pgError(err, server);
      }
    },
  });
  return {
    dialect: "postgres",
    ...on(pool),
    async transaction<T>(fn: (tx: PostgresQuery) => Promise<T>): Promise<T> {
      try {
        return await inTransaction(pool, (client) => fn(on(client)));
      } catch (err) {
        throw pgError(err, server);
      }
    },
    async lockSession(): Promise<LockSession> {
      try {
        return await lockSession(pool, schema, server, locks);
      } catch (err) {
        throw pgError(err, server);
      }
    },
  };
}
