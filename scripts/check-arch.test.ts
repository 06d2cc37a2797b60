import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "iris-arch-"));
  dirs.push(root);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}
const run = (script: string, root: string) =>
  spawnSync(process.execPath, [join(here, script), root], { encoding: "utf8" });

describe("check-imports", () => {
  it("passes on imports that go the right way", () => {
    const root = tree({
      "packages/llm/src/a.ts": "export const a = 1;\n",
      "packages/agent/src/b.ts":
        'import { a } from "@iris/llm";\nimport { c } from "./c.js";\nexport const b = a + c;\n',
      "packages/agent/src/c.ts": "export const c = 2;\n",
    });
    expect(run("check-imports.mjs", root).status).toBe(0);
  });
  it("fails on a wrong-way import between packages", () => {
    const root = tree({ "packages/llm/src/a.ts": 'import { x } from "@iris/agent";\nexport const a = x;\n' });
    const r = run("check-imports.mjs", root);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("package 'llm' must not import '@iris/agent'");
  });
  it("fails on an import cycle between files", () => {
    const root = tree({
      "packages/tools/src/a.ts": 'import { b } from "./b.js";\nexport const a = b;\n',
      "packages/tools/src/b.ts": 'import { a } from "./a.js";\nexport const b = a;\n',
    });
    const r = run("check-imports.mjs", root);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("import cycle");
  });
  it("counts type-only and side-effect imports in a cycle", () => {
    const typeCycle = tree({
      "packages/host/src/a.ts": 'import type { B } from "./b.js";\nexport type A = B | 1;\n',
      "packages/host/src/b.ts": 'import { type A } from "./a.js";\nexport type B = A | 2;\n',
    });
    expect(run("check-imports.mjs", typeCycle).stderr).toContain("import cycle");
    const sideEffect = tree({
      "packages/host/src/a.ts": 'import "./b.js";\nexport const a = 1;\n',
      "packages/host/src/b.ts": 'import { a } from "./a.js";\nexport const b = a;\n',
    });
    expect(run("check-imports.mjs", sideEffect).stderr).toContain("import cycle");
  });
  it("keeps host below the front ends", () => {
    const r = run(
      "check-imports.mjs",
      tree({ "packages/host/src/a.ts": 'import { x } from "@iris/iris";\nexport const a = x;\n' }),
    );
    expect(r.stderr).toContain("package 'host' must not import '@iris/iris'");
  });
  it("lets tests import testkit but not sources", () => {
    const ok = tree({ "packages/llm/src/a.test.ts": 'import { f } from "@iris/testkit";\nf();\n' });
    expect(run("check-imports.mjs", ok).status).toBe(0);
    const bad = tree({ "packages/llm/src/a.ts": 'import { f } from "@iris/testkit";\nf();\n' });
    expect(run("check-imports.mjs", bad).status).toBe(1);
  });
  it("keeps front ends clients of host: no import of the store or the agent", () => {
    for (const [pkg, target] of [
      ["acp", "store"],
      ["serve", "agent"],
      ["gateway", "store"],
      ["batch", "agent"],
      ["iris", "store"],
      ["cli", "agent"],
    ]) {
      const r = run(
        "check-imports.mjs",
        tree({
          [`packages/${pkg}/src/a.ts`]: `import type { X } from "@iris/${target}";\nexport type A = X;\n`,
        }),
      );
      expect(r.status, `${pkg} → ${target}`).toBe(1);
      expect(r.stderr).toContain(`package '${pkg}' must not import '@iris/${target}'`);
    }
    const ok = tree({
      "packages/serve/src/a.ts": 'import type { Session } from "@iris/host";\nexport type A = Session;\n',
      // A front end's test looks at what was stored through host, and may import its own src/.
      "packages/serve/test/a.e2e.test.ts":
        'import { openStore } from "@iris/host";\nimport { a } from "../src/a.js";\nopenStore;\na;\n',
    });
    const okRun = run("check-imports.mjs", ok);
    expect(okRun.stderr).not.toContain("problem");
    expect(okRun.status).toBe(0);
  });
  it("fails on a package.json dependency a package may not import", () => {
    const bad = tree({
      "packages/serve/package.json": JSON.stringify({
        dependencies: { "@iris/host": "0.1.0", "@iris/store": "0.1.0" },
      }),
      "packages/serve/src/a.ts": "export const a = 1;\n",
    });
    const r = run("check-imports.mjs", bad);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("packages/serve/package.json: depends on '@iris/store'");
    const ok = tree({
      "packages/cli/package.json": JSON.stringify({
        dependencies: { "@iris/host": "0.1.0", "@iris/llm": "0.1.0" },
        devDependencies: { "@iris/testkit": "0.1.0" },
      }),
    });
    expect(run("check-imports.mjs", ok).status).toBe(0);
  });
  it("keeps front-end tests clients of host too, in test/ and beside the sources", () => {
    for (const [file, target] of [
      ["packages/acp/test/one-turn.e2e.test.ts", "agent"],
      ["packages/serve/test/helpers.ts", "store"],
      ["packages/batch/src/run.test.ts", "store"],
      ["packages/gateway/test/contract.ts", "agent"],
    ] as const) {
      const pkg = file.split("/")[1];
      const r = run(
        "check-imports.mjs",
        tree({ [file]: `import { openStore } from "@iris/${target}";\nopenStore;\n` }),
      );
      expect(r.status, file).toBe(1);
      expect(r.stderr).toContain(`${file}: package '${pkg}' must not import '@iris/${target}'`);
    }
    // A test still may not reach into another package's files.
    const r = run(
      "check-imports.mjs",
      tree({ "packages/acp/test/a.test.ts": 'import { x } from "../../store/src/x.js";\nx;\n' }),
    );
    expect(r.stderr).toContain("reaches outside its package");
  });
  it("keeps front ends off a store reached through the process or a session", () => {
    for (const code of [
      "export const f = (iris) => iris.store.listSessions({ limit: 1 });\n",
      "export const f = (session) => session.store.activePath(session.id);\n",
    ]) {
      const r = run("check-imports.mjs", tree({ "packages/gateway/src/a.ts": code }));
      expect(r.status, code).toBe(1);
      expect(r.stderr).toContain("reaches into a store");
    }
    const ok = tree({
      // A front end's own `store` field (not a Store: the rule below), and host reaching into its own.
      "packages/batch/src/a.ts": "export class A { f() { return this.store.close(); } }\n",
      // The config's `store:` section.
      "packages/gateway/src/b.ts": "export const f = (profile) => profile.config.store.backend;\n",
      "packages/host/src/a.ts": "export const f = (iris) => iris.store.listSessions({ limit: 1 });\n",
      // A front end's test looks at what was stored.
      "packages/serve/test/a.e2e.test.ts":
        "export const f = (iris) => iris.store.listSessions({ limit: 1 });\n",
    });
    expect(run("check-imports.mjs", ok).status).toBe(0);
  });

  it("keeps front ends from opening or holding a store: host opens it", () => {
    for (const [file, code, what] of [
      [
        "packages/batch/src/a.ts",
        'import { openStore } from "@iris/host";\nexport const s = openStore(":memory:");\n',
        "opens a store itself",
      ],
      [
        "packages/cli/src/a.ts",
        'import { openProfileStore } from "@iris/host";\nexport const f = (p) => openProfileStore(p);\n',
        "opens a store itself",
      ],
      [
        "packages/serve/src/a.ts",
        'import { openPostgresStore } from "@iris/host";\nexport const f = (o) => openPostgresStore(o);\n',
        "opens a store itself",
      ],
      [
        "packages/cli/src/b.ts",
        'import type { Store } from "@iris/host";\nexport const f = (store: Store) => store.close();\n',
        "holds a Store",
      ],
      [
        "packages/acp/src/b.ts",
        'import { type SqliteStore } from "@iris/host";\nexport let s: SqliteStore | undefined;\n',
        "holds a Store",
      ],
      // The gateway's own commands too (their tables open through StoredRecords.openTables).
      [
        "packages/gateway/src/commands.ts",
        'import { openProfileStore } from "@iris/host";\nexport const f = (p) => openProfileStore(p);\n',
        "opens a store itself",
      ],
      [
        "packages/gateway/src/c.ts",
        'import { storeOf } from "@iris/host/testing";\nexport const f = (iris) => storeOf(iris);\n',
        "imports @iris/host/testing",
      ],
    ] as const) {
      const r = run("check-imports.mjs", tree({ [file]: code }));
      expect(r.status, file).toBe(1);
      expect(r.stderr).toContain(`${file}: ${what}`);
    }
    const ok = tree({
      // Host's records and in-memory state, and names that merely start with Store.
      "packages/cli/src/a.ts":
        'import { StoredRecords, type StoreError } from "@iris/host";\nexport const f = (p) => StoredRecords.open(p);\nexport type E = StoreError;\n',
      "packages/batch/src/b.ts":
        'import { InMemoryState } from "@iris/host";\nexport const s = InMemoryState.open();\n',
      // Host itself opens stores; a front end's test arranges and looks at what was stored.
      "packages/host/src/a.ts":
        'import { openStore, type Store } from "@iris/store";\nexport const s: Store = openStore(":memory:");\n',
      "packages/serve/test/a.e2e.test.ts":
        'import { openStore, type Store } from "@iris/host";\nimport { storeOf } from "@iris/host/testing";\nexport const s: Store = openStore(":memory:");\nstoreOf;\n',
    });
    const okRun = run("check-imports.mjs", ok);
    expect(okRun.stderr).not.toContain("problem");
    expect(okRun.status).toBe(0);
  });

  it("fails on database access outside packages/store", () => {
    for (const [code, what] of [
      ["export const f = (store) => store.db;\n", "store.db"],
      ["export const f = (s) => s.db.prepare('SELECT 1').get();\n", "raw database handle"],
      ["export const f = (d) => d.transaction(() => 1).immediate();\n", "raw transaction"],
      ['import Database from "better-sqlite3";\nexport const d = Database;\n', "opens SQLite itself"],
      ['import pg from "pg";\nexport const p = pg;\n', "opens Postgres itself"],
      ['export const p = () => import("pg");\n', "opens Postgres itself"],
      ["export const f = (s) => s.atomically(() => 1);\n", "opens a store transaction"],
      ["export const f = (s) => s.engine.db;\n", "reaches into the SQLite engine"],
      ['export const q = "SELECT id FROM sessions WHERE id = ?";\n', "holds SQL"],
      ["export const q = `INSERT OR IGNORE INTO gateway_chats (k) VALUES ($1)`;\n", "holds SQL"],
      ['export const q = "UPDATE sessions SET title = ?";\n', "holds SQL"],
    ]) {
      const r = run("check-imports.mjs", tree({ "packages/agent/src/a.ts": code as string }));
      expect(r.status, code).toBe(1);
      expect(r.stderr).toContain(what as string);
    }
    const inStore = tree({
      "packages/store/src/a.ts": "export const f = (s) => s.db.prepare('SELECT 1');\n",
    });
    expect(run("check-imports.mjs", inStore).status).toBe(0);
    // Everyday words are not SQL: a sentence that selects something from a list passes.
    const prose = tree({ "packages/agent/src/a.ts": 'export const s = "select one from the list";\n' });
    expect(run("check-imports.mjs", prose).status).toBe(0);
  });

  it("lets a front end's state folder hold its SQL and transactions, and nothing more", () => {
    const ok = tree({
      "packages/serve/src/state/sqlite.ts":
        'export const f = (t) => t.transaction(() => t.run("DELETE FROM serve_responses WHERE seq = ?", 1));\n',
      "packages/gateway/src/state/postgres.ts":
        "export const f = (t) => t.transaction(async (tx) => tx.query(`SELECT id FROM gateway_chats WHERE k = $1`, [1]));\n",
    });
    const okRun = run("check-imports.mjs", ok);
    expect(okRun.stderr).not.toContain("problem");
    expect(okRun.status).toBe(0);
    for (const [file, code, what] of [
      // A driver, a handle or the engine stay the store's, state folder or not.
      [
        "packages/serve/src/state/pg.ts",
        'import pg from "pg";\nexport const p = pg;\n',
        "opens Postgres itself",
      ],
      [
        "packages/serve/src/state/db.ts",
        "export const f = (s) => s.db.prepare('x');\n",
        "raw database handle",
      ],
      [
        "packages/serve/src/state/e.ts",
        "export const f = (s) => s.engine.db;\n",
        "reaches into the SQLite engine",
      ],
      // SQL elsewhere in the front end, and in host's or the agent's own "state" folder.
      [
        "packages/serve/src/responses.ts",
        'export const q = "SELECT id FROM serve_responses WHERE k = 1";\n',
        "holds SQL",
      ],
      ["packages/serve/src/stateful.ts", 'export const q = "DELETE FROM serve_idempotency";\n', "holds SQL"],
      [
        "packages/host/src/state/a.ts",
        'export const q = "SELECT id FROM sessions WHERE id = ?";\n',
        "holds SQL",
      ],
      [
        "packages/agent/src/state/a.ts",
        "export const f = (d) => d.transaction(() => 1);\n",
        "raw transaction",
      ],
    ]) {
      const r = run("check-imports.mjs", tree({ [file as string]: code as string }));
      expect(r.status, file).toBe(1);
      expect(r.stderr).toContain(`${file}: `);
      expect(r.stderr).toContain(what as string);
    }
  });

  it("lets each driver be loaded by its own engine only, inside packages/store", () => {
    const ok = tree({
      "packages/store/src/driver.ts": 'import Database from "better-sqlite3";\nexport const d = Database;\n',
      "packages/store/src/postgres/pool.ts": 'import pg from "pg";\nexport const p = pg;\n',
    });
    expect(run("check-imports.mjs", ok).status).toBe(0);
    for (const [file, code, engine] of [
      ["packages/store/src/sessions.ts", 'import pg from "pg";\nexport const p = pg;\n', "Postgres"],
      [
        "packages/store/src/postgres/x.ts",
        'import D from "better-sqlite3";\nexport const d = D;\n',
        "SQLite",
      ],
      ["packages/store/src/state.ts", 'import D from "better-sqlite3";\nexport const d = D;\n', "SQLite"],
    ]) {
      const r = run("check-imports.mjs", tree({ [file as string]: code as string }));
      expect(r.status, file).toBe(1);
      expect(r.stderr).toContain(`${file}: loads the ${engine} driver outside its engine`);
    }
  });
});

describe("check-size", () => {
  it("fails on a source file over 600 lines and ignores generated files", () => {
    const long = "export {};\n".repeat(601);
    expect(run("check-size.mjs", tree({ "packages/llm/src/models.generated.ts": long })).status).toBe(0);
    const r = run("check-size.mjs", tree({ "packages/llm/src/big.ts": long }));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("big.ts");
  });
});

describe("gen-platform-index", () => {
  const plugin = (id: string) => ({
    [`packages/gateway/src/platforms/${id}/plugin.ts`]: `export default { id: "${id}" };\n`,
    [`packages/gateway/src/platforms/${id}/config.ts`]: "export const config = {};\n",
  });
  const gen = (root: string, ...args: string[]) =>
    spawnSync(process.execPath, [join(here, "gen-platform-index.mjs"), "--root", root, ...args], {
      encoding: "utf8",
    });

  it("lists every platform folder and passes --check once written", () => {
    const root = tree({ ...plugin("chat"), ...plugin("mail") });
    expect(gen(root, "--check").status).toBe(1);
    expect(gen(root).status).toBe(0);
    const r = gen(root, "--check");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("fails when a platform id is named in code outside its folder, not in a comment", () => {
    const root = tree({
      ...plugin("chat"),
      "packages/gateway/src/runner.ts": "// chat is fine in a comment\nconst allowed = cfg.platforms.chat;\n",
      "packages/host/src/x.ts": '/* chat */ export const y = "mail";\n',
    });
    gen(root);
    const r = gen(root, "--check");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("packages/gateway/src/runner.ts:2: names platform 'chat'");
    expect(r.stderr).not.toContain("x.ts");
  });

  it("counts a platform id that is an everyday identifier (signal) only where it names the platform", () => {
    const root = tree({
      ...plugin("signal"),
      "packages/tools/src/run.ts":
        'export const f = (signal?: AbortSignal): Omit<R, "signal"> => ({ signal });\n',
      "packages/host/src/route.ts":
        'export const own = (m: { platform: string }) =>\n  m.platform === "signal";\n',
    });
    gen(root);
    const r = gen(root, "--check");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("packages/host/src/route.ts:2: names platform 'signal'");
    expect(r.stderr).not.toContain("run.ts");
  });

  it("fails when a new platform folder is not in the index", () => {
    const root = tree(plugin("chat"));
    gen(root);
    writeFileSync(join(root, "packages/gateway/src/platforms/chat/extra.ts"), "export {};\n");
    expect(gen(root, "--check").status).toBe(0);
    mkdirSync(join(root, "packages/gateway/src/platforms/mail"));
    writeFileSync(join(root, "packages/gateway/src/platforms/mail/plugin.ts"), "export default {};\n");
    writeFileSync(join(root, "packages/gateway/src/platforms/mail/config.ts"), "export {};\n");
    const r = gen(root, "--check");
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/index\.generated\.ts is stale/);
  });
});
