// The gateway's state contract runs on every engine: SQLite on a file in a temp folder, Postgres
// on one throw-away server per test file (testkit's startPostgres), each test in a schema of its
// own. Without Postgres the Postgres half skips on a developer's machine and fails under CI=true.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPostgresStore, openStore, type Store } from "@iris/host";
import { type PostgresServer, skipWithoutPostgres, startPostgres } from "@iris/testkit";
import { afterAll, afterEach, beforeEach, describe } from "vitest";
import { type GatewayTables, openGatewayTables } from "../src/state/index.js";

export type Engine = "sqlite" | "postgres";

let server: Promise<PostgresServer> | undefined;
let schemas = 0;

afterAll(async () => {
  const s = server;
  server = undefined;
  await (await s)?.close();
});

export interface GatewayStateCtx {
  engine: Engine;
  tables: GatewayTables;
  /** Another process on the same database (a restart, or another gateway process): its own store. */
  openAnother(): Promise<GatewayTables>;
  /** The store under `tables` (to close it: what a dying process does). */
  storeOf(tables: GatewayTables): Store;
  /** A store on the same database, before the gateway's tables are opened on it. */
  openStoreOnly(): Promise<Store>;
}

/** `body` once per engine, with fresh gateway state for each test. */
export function describeGatewayEngines(name: string, body: (ctx: GatewayStateCtx) => void): void {
  const skipPg = skipWithoutPostgres();
  for (const engine of ["sqlite", "postgres"] as const) {
    describe.skipIf(engine === "postgres" && skipPg)(`${name} (${engine})`, () => {
      const ctx = { engine } as GatewayStateCtx;
      let stores: Store[] = [];
      const owners = new Map<GatewayTables, Store>();
      let dir: string | undefined;
      beforeEach(async () => {
        let open: () => Promise<Store>;
        if (engine === "sqlite") {
          const folder = mkdtempSync(join(tmpdir(), "iris-gateway-state-"));
          dir = folder;
          open = async () => openStore(join(folder, "state.db"));
        } else {
          server ??= startPostgres();
          const url = (await server).url();
          const schema = `gateway_${process.pid}_${++schemas}`;
          open = () => openPostgresStore({ url, schema });
        }
        ctx.openStoreOnly = async () => {
          const store = await open();
          stores.push(store);
          return store;
        };
        ctx.openAnother = async () => {
          const store = await ctx.openStoreOnly();
          const tables = await openGatewayTables(store);
          owners.set(tables, store);
          return tables;
        };
        ctx.storeOf = (tables) => {
          const store = owners.get(tables);
          if (!store) throw new Error("not opened here");
          return store;
        };
        ctx.tables = await ctx.openAnother();
      });
      afterEach(async () => {
        for (const s of stores) await s.close().catch(() => {});
        stores = [];
        owners.clear();
        if (dir) rmSync(dir, { recursive: true, force: true });
        dir = undefined;
      });
      body(ctx);
    });
  }
}
