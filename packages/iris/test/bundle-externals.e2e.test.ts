// The CLI bundle leaves its large single-use libraries (a platform's client, the docker and ssh
// workspaces', the web and browser tools', the queue's) to node_modules, required when first used.
// Nothing but the command that needs one loads it, so only this test would see one that cannot
// be required from where the bundle lives: a package that is not installed beside it, or an ES
// module that Node's require cannot load. Each is required in a child process, as the bundle does.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const BUNDLE = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "bundle");

interface Meta {
  outputs: Record<string, { imports: { path: string; external?: boolean }[] }>;
}

/** The packages (and subpaths) the bundle requires from node_modules; built-ins left out. */
function externals(): string[] {
  const meta = JSON.parse(readFileSync(join(BUNDLE, "meta.json"), "utf8")) as Meta;
  const paths = Object.values(meta.outputs).flatMap((o) =>
    o.imports.filter((i) => i.external === true).map((i) => i.path),
  );
  return [...new Set(paths)].filter((p) => !isBuiltin(p)).sort();
}

// Optional native add-ons of `ws`, which it tries and does without.
const OPTIONAL = new Set(["bufferutil", "utf-8-validate", "supports-color"]);

it("requires every package the bundle leaves to node_modules from where the bundle lives", () => {
  expect(existsSync(join(BUNDLE, "meta.json")), "the bundle is missing: run npm run build").toBe(true);
  const wanted = externals().filter((p) => !OPTIONAL.has(p));
  // The list is read from the bundle: the heavy libraries are on it (not bundled again).
  expect(wanted).toEqual(
    expect.arrayContaining(["dockerode", "matrix-js-sdk", "imapflow", "playwright-core"]),
  );
  const script = `
const { createRequire } = require("node:module");
const req = createRequire(${JSON.stringify(join(BUNDLE, "iris.cjs"))});
const failed = [];
for (const name of ${JSON.stringify(wanted)}) {
  try { req(name); } catch (e) { failed.push(name + ": " + String(e.message).split("\\n")[0]); }
}
process.stdout.write(JSON.stringify(failed));
process.exit(0);`;
  const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout) as string[]).toEqual([]);
  // Loading an ES module through require is no longer experimental on the Node versions we
  // support: nothing is printed on a user's terminal.
  expect(r.stderr).not.toMatch(/ExperimentalWarning/);
});
