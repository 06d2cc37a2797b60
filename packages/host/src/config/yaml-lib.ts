// The yaml library, loaded on first use: a start with no config.yaml to read never pays for its
// ~70 modules (issue 5, lean start-up). `require` because config loading is synchronous; yaml's
// "node" export is CommonJS, so this is the very module a static import would have loaded.
import { createRequire } from "node:module";
import type * as Yaml from "yaml";

let lib: typeof Yaml | undefined;

export function yaml(): typeof Yaml {
  lib ??= createRequire(import.meta.url)("yaml") as typeof Yaml;
  return lib;
}
