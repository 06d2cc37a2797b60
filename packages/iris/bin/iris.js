#!/usr/bin/env node
// Plain JS so npm can link the bin before the TypeScript build has run. The bundle (`npm run
// build`: an entry and one chunk per command) starts faster; the unbundled build is used when the
// bundle is missing or older than it (e.g. after a plain `tsc -b` during development).
import { statSync } from "node:fs";

const bundle = new URL("../dist/bundle/iris.mjs", import.meta.url);
const unbundled = new URL("../dist/cli/main.js", import.meta.url);
const mtime = (u) => statSync(u, { throwIfNoEntry: false })?.mtimeMs ?? -1;
await import(mtime(bundle) >= mtime(unbundled) ? bundle.href : unbundled.href);
