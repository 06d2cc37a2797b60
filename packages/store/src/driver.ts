// better-sqlite3 has no bundled type declarations and @types/better-sqlite3 is not installed, so
// the driver is loaded through createRequire and typed here with the small surface we use.
import { createRequire } from "node:module";

export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

export interface Statement<Row = unknown> {
  run(...params: unknown[]): RunResult;
  get(...params: unknown[]): Row | undefined;
  all(...params: unknown[]): Row[];
  /** Rows as arrays of column values in SELECT order instead of objects (faster for big reads). */
  raw(toggle?: boolean): Statement<unknown[]>;
  /** Rows as the value of their first column only. */
  pluck(toggle?: boolean): Statement<unknown>;
}

/** A function wrapped by `db.transaction`; `.immediate` takes the write lock at BEGIN. */
export type Transaction<F extends (...args: never[]) => unknown> = F & { immediate: F; deferred: F };

export interface Database {
  prepare<Row = unknown>(sql: string): Statement<Row>;
  exec(sql: string): Database;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F>;
  close(): void;
  readonly open: boolean;
  /** Opened read-only (a snapshot of a store this user may not write). */
  readonly readonly: boolean;
  readonly inTransaction: boolean;
  readonly name: string;
}

export interface DatabaseOptions {
  readonly?: boolean;
  fileMustExist?: boolean;
  timeout?: number;
}

type DatabaseConstructor = new (filename: string, options?: DatabaseOptions) => Database;

const require = createRequire(import.meta.url);
/** Where the driver module lives, for a worker thread that loads it too (checkpointer.ts). */
export const DRIVER_PATH = require.resolve("better-sqlite3");
// The module's export is the constructor; the cast is the one place the untyped module is typed.
const BetterSqlite3 = require("better-sqlite3") as DatabaseConstructor;

export function openDatabase(path: string, options?: DatabaseOptions): Database {
  return new BetterSqlite3(path, options);
}
