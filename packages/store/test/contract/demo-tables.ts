// A front end's table set as the contract suite uses it: two versions per engine, each migration
// one that fails when applied twice (CREATE TABLE without IF NOT EXISTS), so running one again
// shows.
import type { TableAccess, TableSet } from "../../src/tables/table-set.js";

const V1 = { version: 1, name: "items" };
const V2 = { version: 2, name: "notes" };

export const DEMO_V1: TableSet = {
  owner: "demo",
  sqlite: [{ ...V1, sql: "CREATE TABLE demo_items (k TEXT PRIMARY KEY, n INTEGER NOT NULL);" }],
  postgres: [{ ...V1, sql: "CREATE TABLE demo_items (k TEXT PRIMARY KEY, n BIGINT NOT NULL);" }],
};

export const DEMO_V2: TableSet = {
  owner: "demo",
  sqlite: [
    ...DEMO_V1.sqlite,
    { ...V2, sql: "CREATE TABLE demo_notes (k TEXT PRIMARY KEY, note TEXT NOT NULL);" },
  ],
  postgres: [
    ...DEMO_V1.postgres,
    { ...V2, sql: "CREATE TABLE demo_notes (k TEXT PRIMARY KEY, note TEXT NOT NULL);" },
  ],
};

/** Version 2 whose second statement fails after its first one ran. */
export const DEMO_BROKEN_V2: TableSet = {
  owner: "demo",
  sqlite: [
    ...DEMO_V1.sqlite,
    { ...V2, sql: "CREATE TABLE demo_half (k TEXT); INSERT INTO demo_nowhere VALUES (1);" },
  ],
  postgres: [
    ...DEMO_V1.postgres,
    { ...V2, sql: "CREATE TABLE demo_half (k TEXT); INSERT INTO demo_nowhere VALUES (1);" },
  ],
};

/** Adds `n` to item `k` (created at 0), in the port's own dialect. */
export async function bump(t: TableAccess, k: string, n: number): Promise<void> {
  if (t.dialect === "sqlite")
    t.run(
      "INSERT INTO demo_items (k, n) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET n = n + excluded.n",
      k,
      n,
    );
  else
    await t.query(
      "INSERT INTO demo_items (k, n) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET n = demo_items.n + excluded.n",
      [k, n],
    );
}

export async function items(t: TableAccess): Promise<Record<string, number>> {
  const rows =
    t.dialect === "sqlite"
      ? t.all<{ k: string; n: number }>("SELECT k, n FROM demo_items ORDER BY k")
      : (await t.query<{ k: string; n: number }>("SELECT k, n FROM demo_items ORDER BY k")).rows;
  return Object.fromEntries(rows.map((r) => [r.k, r.n]));
}

/** Two bumps in one transaction, then `fail` (if given) throws inside it. */
export async function bumpTwice(t: TableAccess, a: string, b: string, fail?: Error): Promise<void> {
  if (t.dialect === "sqlite")
    t.transaction(() => {
      t.run("INSERT INTO demo_items (k, n) VALUES (?, 1)", a);
      t.run("INSERT INTO demo_items (k, n) VALUES (?, 1)", b);
      if (fail) throw fail;
    });
  else
    await t.transaction(async (tx) => {
      await tx.query("INSERT INTO demo_items (k, n) VALUES ($1, 1)", [a]);
      await tx.query("INSERT INTO demo_items (k, n) VALUES ($1, 1)", [b]);
      if (fail) throw fail;
    });
}
