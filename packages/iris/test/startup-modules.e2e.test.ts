// What `iris -p` loads (issue 15: "the chat UI loaded only when the chat starts"). The bundle is
// split into one chunk per command; a one-shot run must load neither the chat screen nor another
// front end (serve, acp, batch, the gateway), nor packages it never uses (yaml with no config file
// or skill, Ajv with no MCP server, irc-framework, the shell parser with no terminal command).
// A loader hook records every ESM module the process loads; `require.cache` gives the CommonJS ones.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeLlm, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runIris, tempHome } from "./helpers.js";

const BUNDLE = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "bundle");

// Runs in the iris process (via NODE_OPTIONS=--import): the hook thread appends each loaded URL.
const PRELOAD = (log: string) => `
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
const LOG = ${JSON.stringify(log)};
register("data:text/javascript," + encodeURIComponent(\`
import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(\${JSON.stringify(LOG)}, url + "\\\\n");
  return next(url, context);
}\`));
process.on("exit", () => {
  appendFileSync(LOG, Object.keys(createRequire(import.meta.url).cache).join("\\n") + "\\n");
});
`;

interface Meta {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

/** The source modules of every bundle chunk the process loaded, and the CommonJS files it required. */
function loaded(log: string): { sources: string[]; files: string[] } {
  const meta = JSON.parse(readFileSync(join(BUNDLE, "meta.json"), "utf8")) as Meta;
  const lines = readFileSync(log, "utf8").split("\n").filter(Boolean);
  const files = lines.map((l) => (l.startsWith("file://") ? fileURLToPath(l) : l));
  const sources = new Set<string>();
  for (const [out, { inputs }] of Object.entries(meta.outputs)) {
    const chunk = join(BUNDLE, out.split("/").pop() ?? "");
    if (files.includes(chunk)) for (const input of Object.keys(inputs)) sources.add(input);
  }
  return { sources: [...sources], files };
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

  it("loads the one-shot chunk and none of the chat UI, other front ends or unused packages", async () => {
    expect(existsSync(join(BUNDLE, "meta.json")), "the bundle is missing: run npm run build").toBe(true);
    const log = join(h.home, "modules.log");
    const preload = join(h.home, "preload.mjs");
    writeFileSync(preload, PRELOAD(log));
    writeFileSync(log, "");
    fake.setHandler(() => ({ text: "ok" }));
    const r = await runIris(
      ["-p", "hi", "--provider", "custom", "--base-url", fake.baseUrl, "--model", "fake-model"],
      { env: { HOME: h.home, IRIS_HOME: h.home, NODE_OPTIONS: `--import ${preload}` } },
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("ok\n");
    const { sources, files } = loaded(log);
    // The hook saw the dynamically imported one-shot chunk and the native store driver.
    expect(sources).toContain("packages/iris/dist/cli/oneshot.js");
    expect(files.some((f) => /[\\/]better-sqlite3[\\/]/.test(f))).toBe(true);
    const unwanted = sources.filter((s) =>
      /^packages\/iris\/dist\/cli\/(interactive|ui\/chat-screen|ui\/markdown|batch|commands\/)|^packages\/(serve|acp|batch|gateway)\/|^node_modules\/(@modelcontextprotocol|ajv|hono)\//.test(
        s,
      ),
    );
    expect(unwanted).toEqual([]);
    const unusedCjs = files.filter((f) =>
      /[\\/]node_modules[\\/](yaml|ajv|irc-framework|lodash|mvdan-sh)[\\/]/.test(f),
    );
    expect(unusedCjs).toEqual([]);
  });
});
