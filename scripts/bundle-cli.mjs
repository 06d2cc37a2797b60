#!/usr/bin/env node
// Bundles the built CLI into one file: loading ~300 small ESM modules costs Node more start-up
// time than parsing one file (SPEC target: process start → first request ≤ 300 ms).
// Native or lazily loaded packages stay external and are resolved from node_modules as usual.
import { build } from "esbuild";

const banner =
  'import { createRequire as __irisCreateRequire } from "node:module";\nconst require = __irisCreateRequire(import.meta.url);';

await build({
  entryPoints: ["packages/iris/dist/cli/main.js"],
  outfile: "packages/iris/dist/iris.mjs",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["better-sqlite3", "yaml", "mvdan-sh", "irc-framework"],
  banner: { js: banner },
  logLevel: "warning",
  legalComments: "none",
});
