// The gateway state's contract on every engine (store-engines.ts): each test starts with the
// gateway's tables open on a fresh database, and can open more processes on it.
import type { Store } from "@iris/host";
import { afterEach, beforeEach } from "vitest";
import { type GatewayTables, openGatewayTables } from "../src/state/index.js";
import { describeEngines, type Engine } from "./store-engines.js";

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
  describeEngines(name, "gateway", (engines) => {
    const ctx = { engine: engines.engine } as GatewayStateCtx;
    const owners = new Map<GatewayTables, Store>();
    beforeEach(async () => {
      ctx.openStoreOnly = () => engines.openStore();
      ctx.openAnother = async () => {
        const store = await engines.openStore();
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
    afterEach(() => owners.clear());
    body(ctx);
  });
}
