#!/usr/bin/env node
// Fails on an import between workspace packages that goes the wrong way, or on an import cycle
// between packages or between files of one package: static, type-only and side-effect imports
// all count (a type cycle is a design cycle too). Tests and benches may import testkit.
// Front ends are clients of host only (ARCHITECTURE.md): their code imports neither the store
// nor the agent, and neither do their tests (they look at what was stored through what host
// re-exports); a front end's code reaches no store through the process or a session (`iris.store.…`:
// host offers a method), opens no store and holds none (host opens it: IrisProcess, StoredRecords,
// InMemoryState), and imports no `@iris/host/testing` (tests only); and no code outside packages/store touches the database itself (a `.db`
// handle, a raw transaction, a driver, SQL text): the rest of Iris sees the async state interface
// only (store/src/state.ts). One exception: a front end's own state folder
// (`packages/<front end>/src/state/`) holds the SQL of the front end's table set and runs it, with
// transactions, through the port the store hands out (store/src/tables/table-set.ts) — still no
// driver, no handle, no engine. Inside packages/store each driver is loaded by its own engine only.
// Both `src/` and `test/` of every package are read.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const root = resolve(process.argv[2] ?? resolve(dirname(new URL(import.meta.url).pathname), ".."));
/** What each package may import (ARCHITECTURE.md: llm ← tools ← agent ← host ← front ends ← iris, store beside). */
const frontEnd = ["llm", "tools", "host"];
const allowed = {
  llm: [],
  store: ["llm"],
  tools: ["llm"],
  agent: ["llm", "tools", "store"],
  host: ["llm", "tools", "store", "agent"],
  // Front ends: clients of host (and the canonical types and tools it builds on); none imports
  // another front end.
  acp: frontEnd,
  batch: frontEnd,
  cli: frontEnd,
  dashboard: frontEnd,
  gateway: frontEnd,
  serve: frontEnd,
  iris: [...frontEnd, "acp", "batch", "cli", "dashboard", "gateway", "serve"],
  testkit: [],
};
/** What a test may import besides what its package may: testkit (fakes of the services). */
const testMayImport = (target) => target === "testkit";
/** Database access itself: only packages/store may do it; `true` marks what a front end's state
 * folder may do too (SQL text, and transactions of the store's table port). */
const rawDb = [
  [/\.db\.(prepare|exec|transaction|pragma|backup)\b/, "runs SQL on a raw database handle"],
  [/\bstore\.db\b/, "reaches into the store's database handle (store.db)"],
  [
    /\.transaction\(\s*(\(|function|async)/,
    "opens a raw transaction (the state interface has one method per write)",
    true,
  ],
  [/\.atomically\(/, "opens a store transaction (the state interface has one method per write)"],
  [/\.engine\.(db|atomically)\b/, "reaches into the SQLite engine under the state interface"],
  [/from\s+["']better-sqlite3["']|require\(["']better-sqlite3["']\)/, "opens SQLite itself"],
  [/from\s+["']pg["']|require\(["']pg["']\)|import\(\s*["']pg["']\s*\)/, "opens Postgres itself"],
  [
    /["'`]\s*(SELECT\s[^"'`]*\sFROM\s|INSERT\s+(OR\s+\w+\s+)?INTO\s|DELETE\s+FROM\s|UPDATE\s+\w+\s+SET\s|CREATE\s+(TABLE|INDEX)\s)/,
    "holds SQL (queries belong in the store engines, or a front end's src/state/)",
    true,
  ],
];
/** Inside packages/store: which files may load each driver (the engines). */
const driverHomes = [
  [
    /from\s+["']better-sqlite3["']|require\(["']better-sqlite3["']\)/,
    /^packages\/store\/src\/driver\.ts$/,
    "SQLite",
  ],
  [
    /from\s+["']pg["']|require\(["']pg["']\)|import\(\s*["']pg["']\s*\)/,
    /^packages\/store\/src\/postgres\//,
    "Postgres",
  ],
];

/** Front ends hold no store: a `.store.` reached through another object (the process, a session)
 * is host's to offer as a method. A front end's own `this.store` field is its own object, and
 * `config.store.…` is the config's `store:` section (which engine), not a store. */
const frontEnds = new Set(Object.keys(allowed).filter((p) => allowed[p].includes("host")));
const reachedStore = /\b(\w+)\.store\.\w/g;
/** Nor does a front end's code open a store or hold one: host opens the profile's (IrisProcess,
 * StoredRecords, InMemoryState) so every front end runs the same on SQLite and Postgres. Its tests
 * may (they arrange and look at what was stored), and only tests import `@iris/host/testing`. */
const holdsStore = [
  [/\bopen(Profile|Postgres)?Store\s*\(/, "opens a store itself (host opens it: IrisProcess, StoredRecords)"],
  [
    /\b(type\s+|:\s*|<\s*|\bas\s+)(Sqlite)?Store\b(?![\w.])/,
    "holds a Store (host's process and records offer methods)",
  ],
  [/["']@iris\/host\/testing["']/, "imports @iris/host/testing (tests only)"],
];

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === "node_modules" || name === "dist") continue;
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|mts|tsx)$/.test(name) && !name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

// 1: `import … from`/`export … from` (type-only included), 2: `import("…")`, 3: `import "…"`.
const importRe =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s+["']([^"']+)["']/g;
const errors = [];
const fileGraph = new Map();

for (const pkg of Object.keys(allowed)) {
  const pkgDir = join(root, "packages", pkg);
  const srcDir = join(pkgDir, "src");
  // Its package.json depends on no workspace package it may not import (testkit: for its tests).
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  } catch {
    manifest = {};
  }
  for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) {
    const target = /^@iris\/([a-z]+)$/.exec(dep)?.[1];
    if (target && target !== pkg && !allowed[pkg].includes(target) && !testMayImport(target))
      errors.push(`packages/${pkg}/package.json: depends on '${dep}', which '${pkg}' must not import`);
  }
  const files = [];
  for (const dir of [srcDir, join(pkgDir, "test")]) {
    try {
      walk(dir, files);
    } catch {
      // a package without src/ or test/
    }
  }
  for (const file of files) {
    const isTest = /\.test\.ts$/.test(file) || file.includes("/test/");
    const text = readFileSync(file, "utf8");
    const edges = [];
    for (const m of text.matchAll(importRe)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec) continue;
      const pm = /^@iris\/([a-z]+)/.exec(spec);
      if (pm) {
        const target = pm[1];
        if (target === pkg) errors.push(`${relative(root, file)}: imports its own package by name (${spec})`);
        else if (isTest && testMayImport(target)) continue;
        else if (!allowed[pkg].includes(target))
          errors.push(`${relative(root, file)}: package '${pkg}' must not import '${spec}'`);
        continue;
      }
      if (spec.startsWith(".")) {
        const target = resolve(dirname(file), spec).replace(/\.js$/, ".ts");
        // A test in test/ may import its package's src/; nothing may leave its package.
        if (!target.startsWith(isTest ? pkgDir + sep : srcDir))
          errors.push(`${relative(root, file)}: reaches outside its package (${spec})`);
        if (!isTest && !m[2]) edges.push(target);
      }
    }
    if (!isTest) fileGraph.set(file, edges);
    if (!isTest && frontEnds.has(pkg))
      for (const m of text.matchAll(reachedStore))
        if (m[1] !== "this" && m[1] !== "config")
          errors.push(
            `${relative(root, file)}: reaches into a store (${m[0]}…); front ends use the methods of host's process and sessions`,
          );
    const rel = relative(root, file).split(sep).join("/");
    if (!isTest && frontEnds.has(pkg))
      for (const [re, what] of holdsStore)
        if (re.test(text)) errors.push(`${rel}: ${what}; front ends are clients of host only`);
    const inStateFolder = frontEnds.has(pkg) && file.startsWith(join(srcDir, "state") + sep);
    if (!isTest && pkg !== "store")
      for (const [re, what, stateFolderMay] of rawDb)
        if (re.test(text) && !(stateFolderMay && inStateFolder))
          errors.push(
            `${relative(root, file)}: ${what}; database access belongs in packages/store (a front end's own tables: its src/state/)`,
          );
    if (pkg === "store")
      for (const [re, home, engine] of driverHomes)
        if (re.test(text) && !home.test(relative(root, file).split(sep).join("/")))
          errors.push(`${relative(root, file)}: loads the ${engine} driver outside its engine`);
  }
}

// Cycle detection over static file imports, type-only ones included (dynamic imports are how we
// break start-up chains).
const state = new Map();
function visit(node, stack) {
  state.set(node, 1);
  stack.push(node);
  for (const next of fileGraph.get(node) ?? []) {
    if (!fileGraph.has(next)) continue;
    if (state.get(next) === 1) {
      const cycle = stack.slice(stack.indexOf(next)).concat(next);
      errors.push(`import cycle: ${cycle.map((f) => relative(root, f)).join(" -> ")}`);
    } else if (!state.has(next)) visit(next, stack);
  }
  stack.pop();
  state.set(node, 2);
}
for (const f of fileGraph.keys()) if (!state.has(f)) visit(f, []);

if (errors.length) {
  console.error(`check-imports: ${errors.length} problem(s)\n${errors.join("\n")}`);
  process.exit(1);
}
console.error(`check-imports: ${fileGraph.size} files, no wrong-way import, no cycle`);
