// The gateway's table sets (its state, cron's) are tested on every engine: SQLite on a file in a
// temp folder, Postgres on one throw-away server per test file (testkit's startPostgres), each
// test in a schema of its own. Without Postgres the Postgres half skips on a developer's machine
// and fails under CI=true.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPostgresStore, openStore, type Store } from "@iris/host";
import { type PostgresServer, skipWithoutPostgres, startPostgres } from "@iris/testkit";
import { afterAll, afterEach, beforeEach, describe } from "vitest";

export type Engine = "sqlite" | "postgres";

let server: Promise<PostgresServer> | undefined;
let schemas = 0;

afterAll(async () => {
  const s = server;
  server = undefined;
  await (await s)?.close();
});

export interface EngineCtx {
  engine: Engine;
  /** A process's store on the test's database (each call: another process, or a restart). */
  openStore(): Promise<Store>;
}

/** `body` once per engine, with a fresh database for each test; stores opened are closed after. */
export function describeEngines(name: string, prefix: string, body: (ctx: EngineCtx) => void): void {
  const skipPg = skipWithoutPostgres();
  for (const engine of ["sqlite", "postgres"] as const) {
    describe.skipIf(engine === "postgres" && skipPg)(`${name} (${engine})`, () => {
      const ctx = { engine } as EngineCtx;
      let stores: Store[] = [];
      let dir: string | undefined;
      beforeEach(async () => {
        let open: () => Promise<Store>;
        if (engine === "sqlite") {
          const folder = mkdtempSync(join(tmpdir(), `iris-${prefix}-state-`));
          dir = folder;
          open = async () => openStore(join(folder, "state.db"));
        } else {
          server ??= startPostgres();
          const url = (await server).url();
          const schema = `${prefix}_${process.pid}_${++schemas}`;
          open = () => openPostgresStore({ url, schema });
        }
        ctx.openStore = async () => {
          const store = await open();
          stores.push(store);
          return store;
        };
      });
      afterEach(async () => {
        // A test may have closed one itself (a dying process).
        for (const s of stores) await s.close().catch(() => {});
        stores = [];
        if (dir) rmSync(dir, { recursive: true, force: true });
        dir = undefined;
      });
      body(ctx);
    });
  }
}
