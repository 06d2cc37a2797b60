// The store contract: one suite, run unchanged against every engine. SQLite opens a file in a temp
// folder; Postgres runs one throw-away server per test file (testkit's startPostgres), each test
// in a schema of its own. Without Postgres the Postgres half skips on a developer's machine and
// fails under CI=true.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type PostgresServer, skipWithoutPostgres, startPostgres } from "@iris/testkit";
import { afterAll, afterEach, beforeEach, describe } from "vitest";
import { openPostgresStore } from "../../src/postgres/store.js";
import { openStore } from "../../src/sqlite-store.js";
import type { Store } from "../../src/state.js";

export type Engine = "sqlite" | "postgres";

let server: Promise<PostgresServer> | undefined;
let schemas = 0;

/** The file's Postgres server, started on first use and stopped after the file's tests. */
export function postgresServer(): Promise<PostgresServer> {
  server ??= startPostgres();
  return server;
}

afterAll(async () => {
  const s = server;
  server = undefined;
  await (await s)?.close();
});

/** A fresh, empty store of `engine`; `cleanup` closes it and removes what it made. */
export async function freshStore(engine: Engine): Promise<{ store: Store; cleanup: () => Promise<void> }> {
  if (engine === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "iris-contract-"));
    const store = openStore(join(dir, "state.db"));
    return {
      store,
      cleanup: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const pg = await postgresServer();
  const store = await openPostgresStore({ url: pg.url(), schema: `contract_${process.pid}_${++schemas}` });
  return { store, cleanup: () => store.close() };
}

/** `body` once per engine, with a fresh store in `ctx.store` for each test. */
export function describeEngines(name: string, body: (ctx: { store: Store; engine: Engine }) => void): void {
  const skipPg = skipWithoutPostgres();
  for (const engine of ["sqlite", "postgres"] as const) {
    describe.skipIf(engine === "postgres" && skipPg)(`${name} (${engine})`, () => {
      const ctx = { engine } as { store: Store; engine: Engine };
      let cleanup: (() => Promise<void>) | undefined;
      beforeEach(async () => {
        const fresh = await freshStore(engine);
        ctx.store = fresh.store;
        cleanup = fresh.cleanup;
      });
      afterEach(async () => {
        await cleanup?.();
        cleanup = undefined;
      });
      body(ctx);
    });
  }
}
