// `prepare` that compiles each SQL text once. better-sqlite3 keeps no statement cache: a statement
// prepared per call is compiled again and left for the GC to finalize, on paths that run for every
// gateway message, API request or search.
import type { Database, Statement } from "./driver.js";

export type CachedDatabase = Pick<Database, "prepare" | "transaction">;

export function withStatementCache(db: Database): CachedDatabase {
  const stmts = new Map<string, Statement<unknown>>();
  return {
    prepare<Row = unknown>(sql: string): Statement<Row> {
      let stmt = stmts.get(sql);
      if (!stmt) {
        stmt = db.prepare(sql);
        stmts.set(sql, stmt);
      }
      return stmt as Statement<Row>;
    },
    transaction: (fn) => db.transaction(fn),
  };
}
