#!/usr/bin/env node
// Plain JS so npm can link the bin before the TypeScript build has run. The one-file bundle
// (`npm run build`) starts faster; the unbundled build is used when the bundle is missing or
// older than it (e.g. after a plain `tsc -b` during development).
import { statSync } from "node:fs";

const bundle = new URL("../dist/iris.mjs", import.meta.url);
const unbundled = new URL("../dist/cli/main.js", import.meta.url);
const mtime = (u) => statSync(u, { throwIfNoEntry: false })?.mtimeMs ?? -1;
await import(mtime(bundle) >= mtime(unbundled) ? bundle.href : unbundled.href);
