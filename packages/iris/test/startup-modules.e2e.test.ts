// What `iris -p` evaluates (issue 15: "the chat UI loaded only when the chat starts"). The bundle
// is one CommonJS file in which every module reached only through `await import()` is wrapped in an
// init function that runs when that import does; a one-shot run must evaluate neither the chat
// screen nor another front end (serve, acp, batch, the gateway), nor load packages it never uses
// (yaml with no config file or skill, Ajv with no MCP server, irc-framework, the shell parser with
// no terminal command). Evaluated = the entry's static imports (from the bundle's metafile) plus the
// wrapped modules whose init ran; a preload records those and `require.cache` at exit.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runIris, tempHome } from "./helpers.js";

const BUNDLE = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "bundle");
const ENTRY = "packages/iris/dist/main.js";

// Runs in the iris process (via NODE_OPTIONS=--require). esbuild's init wrappers look their module
// up with Object.getOwnPropertyNames on a one-key object { "<source path>"() {…} }.
const PRELOAD = (log: string) => `
const { appendFileSync } = require("node:fs");
const names = Object.getOwnPropertyNames;
const inits = new Set();
Object.getOwnPropertyNames = function (o) {
  const keys = names(o);
  const d = keys.length === 1 ? Object.getOwnPropertyDescriptor(o, keys[0]) : undefined;
  if (d && typeof d.value === "function" && /\\.[cm]?js$/.test(keys[0])) inits.add(keys[0]);
  return keys;
};
process.on("exit", () => {
  appendFileSync(${JSON.stringify(log)}, [...inits, ...Object.keys(require.cache)].join("\\n") + "\\n");
});
`;

/** What `iris -p` may load from node_modules: schemas, the CLI parser, the store driver, proxy rules. */
const ONE_SHOT_PACKAGES = new Set([
  "zod",
  "commander",
  "better-sqlite3",
  "bindings",
  "file-uri-to-path",
  "proxy-from-env",
]);

/** The package a bundled source or a required file belongs to (undefined: not from node_modules). */
function packageOf(path: string): string | undefined {
  const parts = path.split(/[\\/]node_modules[\\/]|^node_modules[\\/]/);
  if (parts.length < 2) return undefined;
  const rest = (parts.at(-1) ?? "").split(/[\\/]/);
  return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
}

interface Meta {
  inputs: Record<string, { imports: { path: string; kind: string }[] }>;
}

/** Sources evaluated at start: the entry and what it imports statically, transitively. */
function eager(meta: Meta): Set<string> {
  const seen = new Set<string>();
  const todo = [ENTRY];
  while (todo.length) {
    const source = todo.pop()!;
    if (seen.has(source) || !meta.inputs[source]) continue;
    seen.add(source);
    for (const i of meta.inputs[source].imports) if (i.kind !== "dynamic-import") todo.push(i.path);
  }
  return seen;
}

/** The bundled sources the process evaluated, and the files it required from disk. */
function loaded(log: string): { sources: string[]; files: string[] } {
  const meta = JSON.parse(readFileSync(join(BUNDLE, "meta.json"), "utf8")) as Meta;
  const lines = readFileSync(log, "utf8").split("\n").filter(Boolean);
  const sources = new Set(eager(meta));
  for (const line of lines) if (meta.inputs[line]) sources.add(line);
  return { sources: [...sources], files: lines.filter((l) => !meta.inputs[l]) };
}

describe("iris -p start-up", () => {
  let fake: FakeLlm;
  let h: ReturnType<typeof tempHome>;
  beforeEach(async () => {
    fake = await startFakeLlm();
    h = tempHome();
  });
  afterEach(async () => {
    await fake.close();
    h.cleanup();
  });

  it("evaluates the one-shot command and none of the chat UI, other front ends or unused packages", async () => {
    expect(existsSync(join(BUNDLE, "meta.json")), "the bundle is missing: run npm run build").toBe(true);
    const log = join(h.home, "modules.log");
    const preload = join(h.home, "preload.cjs");
    writeFileSync(preload, PRELOAD(log));
    writeFileSync(log, "");
    fake.setHandler(() => ({ text: "ok" }));
    const r = await runIris(
      ["-p", "hi", "--provider", "custom", "--base-url", fake.baseUrl, "--model", "fake-model"],
      { env: { HOME: h.home, IRIS_HOME: h.home, NODE_OPTIONS: `--require ${preload}` } },
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("ok\n");
    const { sources, files } = loaded(log);
    // The preload saw the one-shot command's init run and the native store driver load.
    expect(sources).toContain("packages/cli/dist/oneshot.js");
    expect(files.some((f) => /[\\/]better-sqlite3[\\/]/.test(f))).toBe(true);
    // The gateway's platform config schemas (zod only) are the exception: every command checks
    // gateway.platforms in config.yaml with them; the platforms' plugins stay unloaded.
    const platformSchemas =
      /^packages\/gateway\/dist\/(platform-configs|platforms\/index\.generated|platforms\/[a-z0-9]+\/config)\.js$/;
    const unwanted = sources.filter(
      (s) =>
        !platformSchemas.test(s) &&
        /^packages\/cli\/dist\/(interactive|ui\/chat-screen|ui\/markdown|commands\/)|^packages\/iris\/dist\/(batch|commands\/)|^packages\/(serve|acp|batch|gateway|dashboard)\/|^node_modules\/(@modelcontextprotocol|ajv|hono)\//.test(
          s,
        ),
    );
    expect(unwanted).toEqual([]);
    // Packages from node_modules, bundled or required from disk: only what a one-shot run needs.
    // Any other (a platform's client, the docker workspace's, a web or browser library) is loaded
    // by what uses it, not by every start.
    const packages = new Set([...sources, ...files].map(packageOf).filter((p) => p !== undefined));
    expect([...packages].filter((p) => !ONE_SHOT_PACKAGES.has(p)).sort()).toEqual([]);
  });
});
