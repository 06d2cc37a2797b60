#!/usr/bin/env node
// Plain JS so npm can link the bin before the TypeScript build has run. The bundle (`npm run
// build`: one CommonJS file run through a V8 code cache, see run-bundle.js) starts faster; the
// unbundled build is used when the bundle is missing or older than it (e.g. after a plain `tsc -b`
// during development).
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const bundle = fileURLToPath(new URL("../dist/bundle/iris.cjs", import.meta.url));
const unbundled = new URL("../dist/main.js", import.meta.url);
const bundleStat = statSync(bundle, { throwIfNoEntry: false });
const unbundledMtime = statSync(unbundled, { throwIfNoEntry: false })?.mtimeMs ?? -1;
if (bundleStat && bundleStat.mtimeMs >= unbundledMtime) {
  const { runBundle } = await import("./run-bundle.js");
  runBundle(bundle, bundleStat);
} else {
  await import(unbundled.href);
}
