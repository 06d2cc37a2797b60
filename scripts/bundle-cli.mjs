#!/usr/bin/env node
// Bundles the built CLI into one CommonJS file, whose V8 code cache warm-cli-cache.mjs then writes
// (SPEC target: process start → first request ≤ 300 ms). Loading ~300 small ES modules costs Node more start-up time than
// one file, and Node 20 keeps no compiled code for ES modules at all; a CommonJS bundle run through
// `vm.Script` (packages/iris/bin/run-bundle.js) starts from the bytecode of a previous run instead
// of parsing and compiling. Each `await import()` of a command (the chat UI, serve, acp, batch, the
// gateway, …) stays lazy: esbuild wraps those modules in init functions that run only when the
// command does, so `iris -p` never evaluates front ends it does not use.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
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

// Native or lazily loaded packages, and the large libraries of one command each (the MCP client
// with Ajv, the API server's HTTP framework, the gateway's cron parser; each has a CommonJS
// build): resolved from node_modules when used, so the bundle, its cache and every start's memory
// hold only what most runs use.
const EXTERNAL = [
  "better-sqlite3",
  // The Postgres store's driver (store.backend: postgres), loaded when such a store is opened.
  "pg",
  "yaml",
  "irc-framework",
  "@modelcontextprotocol/sdk",
  "ajv",
  "ajv-formats",
  "hono",
  "@hono/node-server",
  "croner",
  // The web and browser tools' libraries, loaded on their first call.
  "linkedom",
  "@mozilla/readability",
  "turndown",
  "@joplin/turndown-plugin-gfm",
  "pdf-parse",
  "playwright-core",
  "sharp",
  // Discord's client (CommonJS), loaded when the platform is configured; it imports the optional
  // zlib-sync itself.
  "discord.js",
  // Telegram's client: bundled, its start never returned (no request was made); loaded when
  // the platform is configured.
  "grammy",
  "@grammyjs/auto-retry",
  // Slack's Bolt (CommonJS, with express), loaded when the platform is configured.
  "@slack/bolt",
  // The ssh workspace's client (native parts), loaded on its first connection.
  "ssh2",
  // The docker workspace's Engine API client (with gRPC and protobufjs), loaded by its first
  // container: bundled, every start evaluated it (and required ssh2) at twice the start-up time.
  "dockerode",
  // The work queue (BullMQ with its Postgres and Redis drivers), loaded when a queue is opened.
  "bullmq",
  // The gateway's Matrix, email and Mattermost clients (matrix-js-sdk, imapflow, mailparser and
  // nodemailer are ES modules, required through Node's require(esm)), loaded when the platform
  // is: bundled, they were two thirds of the bundle that every start reads.
  "matrix-js-sdk",
  "imapflow",
  "mailparser",
  "nodemailer",
  "@mattermost/client",
  // The chat's code-block highlighter and edit diffs (CommonJS builds), loaded with the chat.
  "highlight.js",
  "diff",
];

// vm.Script runs no `import()` in Node 20 without --experimental-vm-modules once the code comes
// from a cache ("A dynamic import callback was not specified"). The bundled sources' `import()`s
// become init calls; the ones left, of built-ins and external packages (all with a CommonJS
// entry), go through require instead. The build fails if any `import()` remains.
const requireExternals = {
  name: "require-externals",
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== "dynamic-import" || args.namespace !== "file") return undefined;
      const builtin = args.path.startsWith("node:");
      const external = EXTERNAL.some((e) => args.path === e || args.path.startsWith(`${e}/`));
      return builtin || external ? { path: args.path, namespace: "require-external" } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: "require-external" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};

const outdir = "packages/iris/dist/bundle";
const outfile = `${outdir}/iris.cjs`;
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: ["packages/iris/dist/main.js"],
  outfile,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: EXTERNAL,
  // The sources locate their packages with createRequire(import.meta.url): the bundle's own URL.
  define: { "import.meta.url": "__irisBundleUrl" },
  // "use strict" first: after the banner, esbuild's own directive would be a plain string.
  banner: {
    js: '"use strict";\nconst __irisBundleUrl = require("node:url").pathToFileURL(__filename).href;',
  },
  logLevel: "warning",
  legalComments: "none",
  // Shorter code, the same names and lines of readable code in stack traces.
  minifySyntax: true,
  plugins: [englishOnlyZod, requireExternals],
  metafile: true,
});
const leftImports = Object.values(result.metafile.outputs).flatMap((o) =>
  o.imports.filter((i) => i.kind === "dynamic-import").map((i) => i.path),
);
if (leftImports.length) throw new Error(`bundle-cli: import() left in the bundle: ${leftImports.join(", ")}`);
// main.js starts with a shebang, which is no statement inside a function.
// esbuild escapes non-ASCII text in code but not in the comments it keeps; one such character
// would make V8 hold the whole source as a two-byte string (twice the memory).
const source = readFileSync(outfile, "utf8")
  .replace(/^#!.*/, "")
  .replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
// Written already wrapped in CommonJS's function, so that run-bundle.js compiles the file's text as
// it is read rather than a second copy with the wrapper around it.
writeFileSync(
  outfile,
  "// The iris CLI, run by packages/iris/bin/run-bundle.js (npm run build writes it).\n" +
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
);
// Which sources the bundle holds and what each imports: the start-up test reads it to tell which
// modules `iris -p` evaluates.
writeFileSync(`${outdir}/meta.json`, JSON.stringify(result.metafile));
