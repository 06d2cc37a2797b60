// bin/run-bundle.js: the CLI bundle runs from a V8 code cache, written when missing or rejected,
// kept while V8 accepts it, and replaced when the bundle changes. Real child processes, since the
// cache is written when the process exits.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), "..");
const RUN_BUNDLE = join(PACKAGE, "bin", "run-bundle.js");

let dir: ReturnType<typeof tempDir>;
let app: string;
beforeEach(() => {
  dir = tempDir("code-cache-");
  app = join(dir.path, "app.cjs");
  // A small "bundle" in the build's shape: CommonJS's function wrapper around strict code that
  // requires a built-in and writes its result.
  writeFileSync(
    app,
    '(function (exports, require, module, __filename, __dirname) {"use strict";\n' +
      'const { join } = require("node:path");\nconst f = (a) => join(a, "b");\n' +
      "process.stdout.write(f(module.exports === exports ? 'a' : 'x') + ' ' + __filename.endsWith('app.cjs'));\n})",
  );
  writeFileSync(
    join(dir.path, "run.mjs"),
    `import { statSync } from "node:fs";\nimport { runBundle } from ${JSON.stringify(pathToFileURL(RUN_BUNDLE).href)};\n` +
      `runBundle(${JSON.stringify(app)}, statSync(${JSON.stringify(app)}));\n`,
  );
});
afterEach(() => dir.cleanup());

function run(
  env: Record<string, string> = {},
  script = join(dir.path, "run.mjs"),
  args: string[] = [],
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

const caches = () => readdirSync(dir.path).filter((n) => n.endsWith(".v8cache"));

describe("the CLI bundle's code cache", () => {
  it("is written by the first run, kept while accepted, rewritten when rejected", async () => {
    expect(await run()).toEqual({ code: 0, out: "a/b true" });
    expect(caches()).toHaveLength(1);
    const cache = join(dir.path, caches()[0]!);
    const first = statSync(cache).ino;

    expect(await run()).toEqual({ code: 0, out: "a/b true" });
    expect(statSync(cache).ino).toBe(first); // accepted: not written again

    const bytes = readFileSync(cache);
    bytes.fill(0x5a, 16, 64); // V8's checksum no longer matches: rejected, compiled from source
    writeFileSync(cache, bytes);
    expect(await run()).toEqual({ code: 0, out: "a/b true" });
    expect(statSync(cache).ino).not.toBe(first);
    expect(readFileSync(cache).equals(bytes)).toBe(false);
  });

  it("a changed bundle gets a new cache and the old one goes", async () => {
    await run();
    const [before] = caches();
    const later = new Date(statSync(app).mtimeMs + 5_000);
    utimesSync(app, later, later);
    expect(await run()).toEqual({ code: 0, out: "a/b true" });
    expect(caches()).toHaveLength(1);
    expect(caches()[0]).not.toBe(before);
  });

  it("a run with NODE_OPTIONS (V8 flags may differ) writes none", async () => {
    expect(await run({ NODE_OPTIONS: "--max-old-space-size=256" })).toEqual({ code: 0, out: "a/b true" });
    expect(caches()).toEqual([]);
  });

  it("npm run build leaves a cache that the built CLI's runs accept", async () => {
    const bundle = join(PACKAGE, "dist", "bundle");
    const built = readdirSync(bundle).filter((n) => n.endsWith(".v8cache"));
    expect(built, "run npm run build").toHaveLength(1);
    const cache = join(bundle, built[0]!);
    const ino = statSync(cache).ino;
    const version = await run({}, join(PACKAGE, "bin", "iris.js"), ["--version"]);
    expect(version.code).toBe(0);
    expect(statSync(cache).ino).toBe(ino); // accepted: a rejected cache would be written again
  });
});
