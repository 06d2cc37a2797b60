// Runs the CommonJS CLI bundle through a V8 code cache. Node 20 caches no compiled code for ES
// modules, so every start used to parse ~1.2 MB and compile each function it called (about a third
// of `iris -p`'s start-up). `vm.Script` accepts the bytecode that a previous run produced, functions
// compiled during that run included. `npm run build` writes the cache after a warm-up `iris -p`;
// a run that finds none, or one V8 rejects (another Node version), writes it when it exits.
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import vm from "node:vm";

const SUFFIX = ".v8cache";

/** The cache is only valid for this bundle, byte for byte: V8 checks the source's length alone. */
function cachePath(file, stat) {
  const key = `${process.version}-${process.arch}-${stat.size}-${Math.trunc(stat.mtimeMs)}`;
  return join(dirname(file), `${basename(file)}.${key}${SUFFIX}`);
}

function readCache(path) {
  try {
    return readFileSync(path);
  } catch {
    return undefined; // none yet: compiled from source, written at exit
  }
}

/** Atomically, replacing older caches; a read-only install simply runs without one. */
function writeCache(path, data) {
  const dir = dirname(path);
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
    for (const name of readdirSync(dir)) {
      if (name.endsWith(SUFFIX) && join(dir, name) !== path) rmSync(join(dir, name), { force: true });
    }
  } catch {
    // Not writable or raced by another process: the next run tries again.
    rmSync(tmp, { force: true });
  }
}

/**
 * Compiles the bundle: one expression, CommonJS's function wrapper around the code, in ASCII (both
 * done by scripts/bundle-cli.mjs), so its text is compiled as read, held as one byte a character.
 * It holds no `import()` either: Node 20 cannot run one in a script compiled from a cache. The
 * cache's bytes are referenced only here, so they are freed early.
 */
function compile(file, cacheFile) {
  const cachedData = readCache(cacheFile);
  const script = new vm.Script(readFileSync(file, "latin1"), { filename: file, cachedData });
  return { script, stale: cachedData === undefined || script.cachedDataRejected === true };
}

export function runBundle(file, stat) {
  const cacheFile = cachePath(file, stat);
  const { script, stale } = compile(file, cacheFile);
  // V8 flags (e.g. --expose-gc) change what a cache must match: such runs neither write one nor
  // overwrite the plain runs' cache.
  const plainFlags = process.execArgv.length === 0 && !process.env.NODE_OPTIONS;
  if (stale && plainFlags) process.once("exit", () => writeCache(cacheFile, script.createCachedData()));
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
}
