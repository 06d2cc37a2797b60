#!/usr/bin/env node
// Writes the CLI bundle's V8 code cache (after bundle-cli.mjs): one `iris -p` against a local fake
// server, run the way a user runs it, so that the cache it writes at exit (bin/run-bundle.js) holds
// the functions a one-shot turn compiles, not only the top level. Fails when the run does.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeLlm } from "../packages/testkit/dist/index.js";

const bundleDir = "packages/iris/dist/bundle";
const caches = () => readdirSync(bundleDir).filter((n) => n.endsWith(".v8cache"));
// A cache left from another run (say `iris --version`) would be accepted and never replaced.
for (const name of caches()) rmSync(join(bundleDir, name));
const fake = await startFakeLlm();
// One round of tools first, so the cache also holds the file tools, the terminal and the approval
// check with its bash parser (shell built-ins only: nothing else runs).
let requests = 0;
fake.setHandler(() =>
  requests++ === 0
    ? {
        toolCalls: [
          { name: "read_file", arguments: { path: "warm.txt" } },
          {
            name: "terminal",
            arguments: {
              command: 'for f in *; do [[ -f "$f" ]] && echo "$(pwd)/$f"; done | { read -r l; echo "$l"; }',
            },
          },
        ],
      }
    : { text: "warm" },
);
const home = mkdtempSync(join(tmpdir(), "iris-warmup-"));
writeFileSync(join(home, "warm.txt"), "warm\n");
try {
  const bin = join(process.cwd(), "packages/iris/bin/iris.js");
  const args = ["-p", "hi", "--provider", "custom", "--base-url", fake.baseUrl, "--model", "warm-up"];
  // Not spawnSync: the fake server answers from this process's event loop.
  const run = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: home,
      env: { PATH: process.env.PATH ?? "", HOME: home, IRIS_HOME: home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const collect = (d) => {
      out += d;
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
  if (run.code !== 0 || caches().length === 0) {
    throw new Error(`warm-cli-cache: the warm-up run failed (exit ${run.code}):\n${run.out}`);
  }
} finally {
  await fake.close();
  rmSync(home, { recursive: true, force: true });
}
