// Front ends' own tables (tables/table-set.ts), on every engine: a set is migrated to its newest
// version once — idempotent, step by step as Iris is upgraded, all or nothing, several processes
// at once — and its port runs the engine's SQL with transactions that commit or roll back whole.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { StoreError } from "../../src/errors.js";
import { openPostgresStore } from "../../src/postgres/store.js";
import { openStore } from "../../src/sqlite-store.js";
import { checkTableSet } from "../../src/tables/table-set.js";
import { bump, bumpTwice, DEMO_BROKEN_V2, DEMO_V1, DEMO_V2, items } from "./demo-tables.js";
import { describeEngines, postgresServer } from "./engines.js";

const fixture = fileURLToPath(new URL("./fixtures/open-tables.ts", import.meta.url));
const repoRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "../../../..");

describeEngines("front ends' table sets", (ctx) => {
  it("creates a set's tables once, at its newest version, and hands out its engine's port", async () => {
    expect(await ctx.store.tablesVersion(DEMO_V2)).toEqual({ version: 0, latest: 2 });
    const t = await ctx.store.openTables(DEMO_V2);
    expect(t.dialect).toBe(ctx.engine);
    await bump(t, "a", 2);
    await bump(t, "a", 3);
    expect(await items(t)).toEqual({ a: 5 });
    // Opening again applies nothing (the migrations would fail if run twice).
    const again = await ctx.store.openTables(DEMO_V2);
    expect(await items(again)).toEqual({ a: 5 });
    expect(await ctx.store.tablesVersion(DEMO_V2)).toEqual({ version: 2, latest: 2 });
  });

  it("brings an older Iris's tables up step by step, keeping their rows", async () => {
    await bump(await ctx.store.openTables(DEMO_V1), "kept", 1);
    expect(await ctx.store.tablesVersion(DEMO_V2)).toEqual({ version: 1, latest: 2 });
    const t = await ctx.store.openTables(DEMO_V2);
    expect(await items(t)).toEqual({ kept: 1 });
    expect((await ctx.store.tablesVersion(DEMO_V2)).version).toBe(2);
  });

  it("commits a transaction whole or not at all", async () => {
    const t = await ctx.store.openTables(DEMO_V2);
    await bumpTwice(t, "x", "y");
    await expect(bumpTwice(t, "p", "q", new Error("changed my mind"))).rejects.toThrow("changed my mind");
    // A statement that fails midway (a duplicate key) takes the first one back too.
    await expect(bumpTwice(t, "z", "x")).rejects.toThrow();
    expect(await items(t)).toEqual({ x: 1, y: 1 });
  });

  it("refuses a set newer than this Iris knows, changing nothing", async () => {
    await ctx.store.openTables(DEMO_V2);
    const err = await ctx.store.openTables(DEMO_V1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe("db_too_new");
    expect((err as StoreError).message).toMatch(/demo's tables at version 2, but this Iris knows up to 1/);
  });

  it("leaves nothing of a migration that fails", async () => {
    await ctx.store.openTables(DEMO_V1);
    const err = await ctx.store.openTables(DEMO_BROKEN_V2).catch((e: unknown) => e);
    expect((err as StoreError).code).toBe("migration_failed");
    expect((err as StoreError).message).toContain("demo");
    expect((await ctx.store.tablesVersion(DEMO_V2)).version).toBe(1);
    // The good version 2 applies cleanly afterwards: the failed one's first table is not there.
    await ctx.store.openTables(DEMO_V2);
    const t = await ctx.store.openTables(DEMO_V2);
    const half =
      t.dialect === "sqlite"
        ? t.all("SELECT name FROM sqlite_master WHERE name = 'demo_half'")
        : (await t.query("SELECT to_regclass('demo_half') AS name")).rows.filter(
            (r) => (r as { name: unknown }).name,
          );
    expect(half).toEqual([]);
  });

  it("migrates once when several processes open a fresh store at the same moment", async () => {
    let args: string[];
    let cleanup = () => {};
    if (ctx.engine === "sqlite") {
      const dir = mkdtempSync(join(tmpdir(), "iris-sets-"));
      args = ["sqlite", join(dir, "state.db")];
      cleanup = () => rmSync(dir, { recursive: true, force: true });
    } else args = ["postgres", (await postgresServer()).url(), `sets_race_${process.pid}`];
    try {
      const children = Array.from({ length: 3 }, () =>
        spawn(process.execPath, ["--import", "tsx", fixture, ...args], { cwd: repoRoot }),
      );
      const outputs = children.map((child) => {
        let err = "";
        child.stderr.on("data", (d: Buffer) => {
          err += d.toString();
        });
        const lines: string[] = [];
        const ready = new Promise<void>((res) =>
          createInterface({ input: child.stdout }).on("line", (l) => {
            lines.push(l);
            if (l === "ready") res();
          }),
        );
        const exit = new Promise<number | null>((res) => child.on("exit", (code) => res(code)));
        return { child, lines, ready, exit, err: () => err };
      });
      await Promise.all(outputs.map((o) => o.ready));
      for (const o of outputs) o.child.stdin.write("go\n");
      for (const o of outputs) {
        expect(await o.exit, o.err()).toBe(0);
        expect(o.lines).toContain("version 2");
      }
      const store =
        ctx.engine === "sqlite"
          ? openStore(args[1] as string)
          : await openPostgresStore({ url: args[1] as string, schema: args[2] });
      try {
        const t = await store.openTables(DEMO_V2);
        const versions =
          t.dialect === "sqlite"
            ? t.all<{ version: number }>(
                "SELECT version FROM table_set_versions WHERE owner = 'demo' ORDER BY version",
              )
            : (
                await t.query<{ version: number }>(
                  "SELECT version FROM table_set_versions WHERE owner = 'demo' ORDER BY version",
                )
              ).rows;
        expect(versions.map((v) => v.version)).toEqual([1, 2]);
      } finally {
        await store.close();
      }
    } finally {
      cleanup();
    }
  }, 60_000);
});

it("refuses a table set whose engines' migrations do not line up, or a bad owner name", () => {
  expect(() => checkTableSet({ ...DEMO_V2, postgres: DEMO_V1.postgres })).toThrow(
    /SQLite has versions \[1,2\], Postgres \[1\]/,
  );
  expect(() => checkTableSet({ ...DEMO_V1, owner: "Serve-State" })).toThrow(/table set owner/);
  const backwards = {
    ...DEMO_V2,
    sqlite: [...DEMO_V2.sqlite].reverse(),
    postgres: [...DEMO_V2.postgres].reverse(),
  };
  expect(() => checkTableSet(backwards)).toThrow(/versions must grow/);
});
