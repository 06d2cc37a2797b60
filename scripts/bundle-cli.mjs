#!/usr/bin/env node
// Bundles the built CLI (SPEC target: process start → first request ≤ 300 ms): loading ~300 small
// ESM modules costs Node more start-up time than parsing a few files. With code splitting, every
// `await import()` of a command (the chat UI, serve, acp, batch, the gateway, …) becomes its own
// chunk, parsed only when that command runs, so `iris -p` never pays for front ends it does not use.
// Native or lazily loaded packages stay external and are resolved from node_modules as usual; an
// external imported statically by a chunk is loaded only with that chunk.
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { build } from "esbuild";

// zod re-exports all of its ~50 message locales (`z.locales`, ~300 KB that every start would parse);
// Iris uses only English, which zod registers by itself. The bundle's `z.locales` holds `en` alone.
const englishOnlyZod = {
  name: "english-only-zod",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), "..", "locales", "index.js"), namespace: "zod-locales" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
      loader: "js",
    }));
  },
};

const banner =
  'import { createRequire as __irisCreateRequire } from "node:module";\nconst require = __irisCreateRequire(import.meta.url);';

const outdir = "packages/iris/dist/bundle";
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { iris: "packages/iris/dist/cli/main.js" },
  outdir,
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunk-[hash]",
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["better-sqlite3", "yaml", "mvdan-sh", "irc-framework"],
  banner: { js: banner },
  logLevel: "warning",
  legalComments: "none",
  plugins: [englishOnlyZod],
  metafile: true,
});
// Which sources each chunk holds and what it imports: the start-up test reads it to tell which
// chunks `iris -p` may load.
writeFileSync(`${outdir}/meta.json`, JSON.stringify(result.metafile));
