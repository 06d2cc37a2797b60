// Table sets on the Postgres engine: migrated under the database's migration lock (the one the
// engine's own migrations take) in one transaction each, and reached through a port over the
// store's pool in the store's schema. Driver errors leave as StoreErrors naming the server.
import { StoreError } from "../errors.js";
import {
  checkTableSet,
  type HeldLock,
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

/** The held locks' connections, ended when the store closes (each entry destroys one). */
export type HeldLocks = Set<() => void>;

/**
 * Takes `name`'s advisory lock (two keys: the schema's, the name's; a namespace of its own apart
 * from the one-key migration lock) on a connection kept out of the pool while it is held.
 */
async function tryLock(
  pool: Pool,
  schema: string,
  name: string,
  registry: HeldLocks,
): Promise<HeldLock | undefined> {
  const client = await pool.connect();
  let released = false;
  let onLost: (err: Error) => void = () => {};
  const lost = new Promise<Error>((resolve) => {
    onLost = resolve;
  });
  const drop = (err: Error) => {
    if (!released) onLost(new Error(`the lock ${name} was lost with its connection: ${err.message}`));
  };
  const onError = (err: Error) => drop(err);
  const onEnd = () => drop(new Error("the connection ended"));
  client.on("error", onError);
  client.on("end", onEnd);
  try {
    const { rows } = await client.query<{ held: boolean }>(
      "SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS held",
      [`iris:${schema}`, name],
    );
    if (rows[0]?.held !== true) {
      released = true;
      client.off("error", onError);
      client.off("end", onEnd);
      client.release();
      return undefined;
    }
  } catch (err) {
    released = true;
    client.release(err as Error);
    throw err;
  }
  const destroy = () => {
    registry.delete(destroy);
    drop(new Error("the store was closed"));
    released = true;
    client.release(true);
  };
  registry.add(destroy);
  return {
    lost,
    async release() {
      if (released) return;
      released = true;
      registry.delete(destroy);
      try {
        await client.query("SELECT pg_advisory_unlock(hashtext($1), hashtext($2))", [`iris:${schema}`, name]);
        client.off("error", onError);
        client.off("end", onEnd);
        client.release();
      } catch (err) {
        // The connection is gone, and the lock with it.
        client.release(err as Error);
      }
    },
  };
}

/** The port over the pool; `server` (user@host:port/database) names the server in errors. */
export function pgTables(pool: Pool, server: string, schema: string, locks: HeldLocks): PostgresTables {
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
    async tryLock(name: string): Promise<HeldLock | undefined> {
      try {
        return await tryLock(pool, schema, name, locks);
      } catch (err) {
        throw pgError(err, server);
      }
    },
  };
}
