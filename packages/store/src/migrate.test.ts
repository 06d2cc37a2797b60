import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "./driver.js";
import { StoreError } from "./errors.js";
import { migrate, schemaVersion } from "./migrate.js";
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from "./migrations/index.js";
import { openSqliteEngine as openStore } from "./store.js";

const dirs: string[] = [];
function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), "iris-store-"));
  dirs.push(dir);
  return join(dir, "state.db");
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("openStore and migrations", () => {
  it("makes a state.db that others could read private again when it opens it", () => {
    const path = tempDb();
    openStore(path).close();
    chmodSync(path, 0o644);
    const store = openStore(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(`${path}-wal`).mode & 0o777).toBe(0o600);
    store.close();
  });

  it("creates a new database at the latest version with WAL, foreign keys and a busy timeout", () => {
    const store = openStore(tempDb());
    expect(schemaVersion(store.db)).toBe(LATEST_SCHEMA_VERSION);
    expect(store.db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(store.db.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(store.db.pragma("busy_timeout", { simple: true })).toBe(5000);
    expect(store.db.pragma("synchronous", { simple: true })).toBe(1); // NORMAL
    const tables = store.db
      .prepare<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((r) => r.name);
    for (const t of [
      "sessions",
      "nodes",
      "nodes_fts",
      "nodes_fts_trigram",
      "usage",
      "effects",
      "schema_version",
    ]) {
      expect(tables).toContain(t);
    }
    store.close();
  });

  it("migrates an older database forward and keeps its data", () => {
    const path = tempDb();
    const old = openDatabase(path);
    expect(migrate(old, 1)).toBe(1);
    old
      .prepare("INSERT INTO sessions (id, source, started_at) VALUES (?, ?, ?)")
      .run("s-old", "cli", Date.now());
    old.close();

    const store = openStore(path);
    expect(schemaVersion(store.db)).toBe(LATEST_SCHEMA_VERSION);
    expect(store.getSession("s-old").source).toBe("cli");
    // The tables of migration 2 now exist and work.
    store.recordUsage({
      sessionId: "s-old",
      provider: "p",
      model: "m",
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      costUsd: 0,
      latencyMs: 1,
      status: "ok",
    });
    expect(store.usageForSession("s-old")).toHaveLength(1);
    store.close();
    // Opening again is a no-op.
    const again = openStore(path);
    // One row per migration (versions are numbered by issue and may leave gaps).
    expect(again.db.prepare<{ n: number }>("SELECT COUNT(*) AS n FROM schema_version").get()?.n).toBe(
      MIGRATIONS.length,
    );
    again.close();
  });

  it("moves a version-2 database to the search watermark without losing what was indexed", () => {
    const path = tempDb();
    const old = openDatabase(path);
    expect(migrate(old, 2)).toBe(2);
    old.prepare("INSERT INTO sessions (id, source, started_at) VALUES ('s', 'cli', 1)").run();
    const insert = old.prepare(
      "INSERT INTO nodes (id, session_id, kind, body_text, search_text, created_at) VALUES (?, 's', 'note', ?, ?, 1)",
    );
    insert.run("n1", "old heron 오래된 왜가리", "old heron 오래된 왜가리");
    insert.run("n2", "old egret", "old egret");
    old.close();

    const store = openStore(path);
    expect(schemaVersion(store.db)).toBe(LATEST_SCHEMA_VERSION);
    // The version-2 insert trigger had indexed both nodes: the mark starts after them.
    expect(store.searchIndexBacklog()).toBe(0);
    const triggers = store.db
      .prepare<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'nodes' ORDER BY name",
      )
      .all()
      .map((r) => r.name);
    expect(triggers).toEqual(["nodes_fts_delete", "nodes_fts_update"]);
    expect(store.search("heron").map((h) => h.nodeId)).toEqual(["n1"]);
    expect(store.search("왜가리").map((h) => h.nodeId)).toEqual(["n1"]);
    const fresh = store.appendNode("s", { kind: "note", text: "new heron" });
    expect(store.search("heron").map((h) => h.nodeId)).toEqual([fresh.id, "n1"]);
    store.close();
  });

  it("rebuilds the nodes table of a version-3 database keeping seq, search and foreign keys", () => {
    const path = tempDb();
    const old = openDatabase(path);
    expect(migrate(old, 3)).toBe(3);
    old.prepare("INSERT INTO sessions (id, source, started_at) VALUES ('s', 'cli', 1)").run();
    const insert = old.prepare(
      "INSERT INTO nodes (seq, id, session_id, parent_id, kind, body_text, search_text, created_at) VALUES (?, ?, 's', ?, 'note', ?, ?, 1)",
    );
    insert.run(7, "n1", null, "grey heron", "grey heron");
    insert.run(9, "n2", "n1", "white egret", "white egret");
    old.prepare("UPDATE sessions SET active_leaf_id = 'n2' WHERE id = 's'").run();
    old.close();

    const store = openStore(path);
    expect(schemaVersion(store.db)).toBe(LATEST_SCHEMA_VERSION);
    expect(store.db.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(store.pathToRoot("n2").map((n) => [n.seq, n.id])).toEqual([
      [7, "n1"],
      [9, "n2"],
    ]);
    expect(store.search("egret").map((h) => h.nodeId)).toEqual(["n2"]);
    expect(store.getSession("s").activeLeafId).toBe("n2");
    const schema = store.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'nodes'").pluck(true).get();
    expect(schema).not.toMatch(/\bIN\s*\(/i);
    expect(() =>
      store.db
        .prepare("INSERT INTO nodes (id, session_id, kind, created_at) VALUES ('x', 's', 'bogus', 1)")
        .run(),
    ).toThrow(/CHECK constraint/);
    expect(() =>
      store.appendNode("s", { kind: "message", message: { role: "user", content: "hi" }, parentId: "gone" }),
    ).toThrow();
    expect(store.db.prepare("PRAGMA integrity_check").pluck(true).get()).toBe("ok");
    store.close();
  });

  it("refuses to migrate a file whose rows point at missing rows, and leaves it as it was", () => {
    const path = tempDb();
    const old = openDatabase(path);
    migrate(old, 3);
    old.pragma("foreign_keys = OFF");
    old.prepare("INSERT INTO sessions (id, source, started_at) VALUES ('s', 'cli', 1)").run();
    old
      .prepare(
        "INSERT INTO nodes (id, session_id, parent_id, kind, body_text, created_at) VALUES ('n', 's', 'lost', 'note', 't', 1)",
      )
      .run();
    old.close();
    expect(() => openStore(path)).toThrow(/pointing at missing rows.*not modified/);
    const check = openDatabase(path, { readonly: true });
    expect(schemaVersion(check)).toBe(3);
    expect(check.prepare("SELECT parent_id FROM nodes WHERE id = 'n'").pluck(true).get()).toBe("lost");
    check.close();
  });

  it("refuses a database from a newer version with a clear message and leaves it untouched", () => {
    const path = tempDb();
    const future = openDatabase(path);
    migrate(future);
    future
      .prepare("INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)")
      .run(99, "future", 1);
    future.close();
    const before = createHash("sha256").update(readFileSync(path)).digest("hex");

    let caught: unknown;
    try {
      openStore(path);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StoreError);
    const err = caught as StoreError;
    expect(err.code).toBe("db_too_new");
    expect(err.message).toContain("99");
    expect(err.message).toContain(String(LATEST_SCHEMA_VERSION));

    const after = createHash("sha256").update(readFileSync(path)).digest("hex");
    expect(after).toBe(before);
    expect(existsSync(`${path}-wal`)).toBe(false);
    const check = openDatabase(path, { readonly: true });
    expect(check.pragma("journal_mode", { simple: true })).toBe("delete");
    check.close();
  });
});
