// Front-end-owned state (ARCHITECTURE.md "Storage"): a front end (serve, the gateway, the
// dashboard) keeps its own tables in the profile's store, described here as a `TableSet` — its
// numbered migrations, one list per engine — and reached through `TableAccess`, a narrow port the
// store hands out once the set is migrated. The port runs SQL the front end wrote for the engine
// it names (`dialect`) and offers transactions; it never exposes a driver, a connection or the
// store's own tables' code. Only a front end's state folder (`packages/<front end>/src/state/`)
// may hold SQL (check-imports.mjs).
import { StoreError } from "../errors.js";

/** One numbered step of a table set, for one engine. Frozen once released: add the next one. */
export interface TableMigration {
  version: number;
  name: string;
  sql: string;
}

/** A front end's own tables: their migrations for each engine, under the same version numbers. */
export interface TableSet {
  /** Who owns the tables ("serve"): their versions are recorded under this name, and their
   * tables are named `<owner>_…` so two sets never meet. */
  readonly owner: string;
  readonly sqlite: readonly TableMigration[];
  readonly postgres: readonly TableMigration[];
}

/** What a set's tables are at in one store: `version` 0 = not created yet. */
export interface TableSetVersion {
  version: number;
  latest: number;
}

export interface RunInfo {
  /** Rows the statement inserted, changed or deleted. */
  changes: number;
}

/**
 * The SQLite port: synchronous, as the engine is (one file, in this process). Statements use `?`
 * placeholders and are compiled once per connection. `transaction` runs `fn` under the file's
 * write lock (BEGIN IMMEDIATE): committed when it returns, rolled back when it throws; `fn` must
 * not await (SQLite's transaction is this connection's, shared by the whole process).
 */
export interface SqliteTables {
  readonly dialect: "sqlite";
  all<Row>(sql: string, ...params: unknown[]): Row[];
  get<Row>(sql: string, ...params: unknown[]): Row | undefined;
  run(sql: string, ...params: unknown[]): RunInfo;
  transaction<T>(fn: () => T): T;
}

/** One Postgres statement's result. */
export interface QueryResult<Row> {
  rows: Row[];
  /** Rows the statement returned or changed. */
  rowCount: number;
}

/** Runs one statement (`$1` placeholders); driver errors come back as StoreErrors. */
export interface PostgresQuery {
  query<Row>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
}

/**
 * Locks held across processes and machines: Postgres session-level advisory locks on a connection
 * of their own. One holder per name at a time; when the holder dies its connection ends and the
 * server frees every lock it held at once, for the next one.
 */
export interface LockSession {
  /** Settles when the connection was lost without close(): every lock went with it, so whatever
   * they guard must stop at once (another process may hold them now). */
  readonly lost: Promise<Error>;
  /** Takes `name` (per schema) when no other session holds it; false when one does. */
  tryLock(name: string): Promise<boolean>;
  unlock(name: string): Promise<void>;
  /** Ends the connection, freeing every lock. */
  close(): Promise<void>;
}

/**
 * The Postgres port: statements on the store's pool, in the store's schema. `transaction` runs
 * `fn`'s statements on one connection in one transaction: committed when `fn` resolves, rolled
 * back when it rejects (a lost connection included: nothing half-written). `lockSession` opens a
 * connection of its own for advisory locks.
 */
export interface PostgresTables extends PostgresQuery {
  readonly dialect: "postgres";
  transaction<T>(fn: (tx: PostgresQuery) => Promise<T>): Promise<T>;
  lockSession(): Promise<LockSession>;
}

/** A front end's access to its own tables, on whichever engine the profile uses. */
export type TableAccess = SqliteTables | PostgresTables;

/** The store side: every engine migrates table sets and hands out access to them. */
export interface TableHost {
  /**
   * Brings `set` to its newest version — idempotent, and safe when several processes open it at
   * once (the engine's migration lock) — and hands out access to its tables.
   */
  openTables(set: TableSet): Promise<TableAccess>;
  /** Where `set` stands in this store, without changing anything. */
  tablesVersion(set: TableSet): Promise<TableSetVersion>;
}

const OWNER = /^[a-z][a-z0-9_]{0,31}$/;

/** The set's newest version; throws on a set whose two engines' migrations do not line up. */
export function checkTableSet(set: TableSet): number {
  if (!OWNER.test(set.owner))
    throw new StoreError(
      "invalid_input",
      `table set owner ${JSON.stringify(set.owner)}: lower-case letters, digits and _ only`,
    );
  const versions = (list: readonly TableMigration[]) => list.map((m) => m.version).join(",");
  if (versions(set.sqlite) !== versions(set.postgres))
    throw new StoreError(
      "invalid_input",
      `table set ${set.owner}: SQLite has versions [${versions(set.sqlite)}], Postgres [${versions(set.postgres)}]; every version needs both`,
    );
  let last = 0;
  for (const m of set.sqlite) {
    if (!Number.isInteger(m.version) || m.version <= last)
      throw new StoreError(
        "invalid_input",
        `table set ${set.owner}: versions must grow (${m.version} after ${last})`,
      );
    last = m.version;
  }
  return last;
}

/** The refusal when a store holds a set newer than this Iris knows. */
export function setTooNew(set: TableSet, found: number, latest: number, where: string): StoreError {
  return new StoreError(
    "db_too_new",
    `${where} holds ${set.owner}'s tables at version ${found}, but this Iris knows up to ${latest}; ` +
      "upgrade Iris to use them (nothing was changed)",
  );
}

/** The bookkeeping table's name: one row per applied (owner, version), on both engines. */
export const TABLE_SET_VERSIONS = "table_set_versions";
