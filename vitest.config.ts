import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import type { Reporter } from "vitest/node";

/** Ends the run with the plain "N passed, N failed" line that CI logs are read for. */
const summaryLine: Reporter = {
  onTestRunEnd(testModules) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of testModules)
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  },
};

const pkgs = [
  "llm",
  "store",
  "tools",
  "agent",
  "host",
  "acp",
  "batch",
  "gateway",
  "serve",
  "dashboard",
  "cli",
  "iris",
  "testkit",
];

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of every workspace package, not their dist.
    alias: Object.fromEntries([
      // The bin's light entry of the gateway (before the package's own alias, which it starts with).
      [
        "@iris/gateway/platform-configs",
        fileURLToPath(new URL("./packages/gateway/src/platform-configs.ts", import.meta.url)),
      ],
      // `iris worker`'s cron part (light: no platform library).
      [
        "@iris/gateway/cron-worker",
        fileURLToPath(new URL("./packages/gateway/src/cron-worker.ts", import.meta.url)),
      ],
      // The gateway's cron tables, for `iris migrate` and the dashboard.
      [
        "@iris/gateway/cron-state",
        fileURLToPath(new URL("./packages/gateway/src/state/cron-open.ts", import.meta.url)),
      ],
      // Serve's table set, for `iris migrate` (without the server).
      ["@iris/serve/tables", fileURLToPath(new URL("./packages/serve/src/state/tables.ts", import.meta.url))],
      // The gateway's table set, for `iris migrate` (without the platforms).
      [
        "@iris/gateway/tables",
        fileURLToPath(new URL("./packages/gateway/src/state/tables.ts", import.meta.url)),
      ],
      // What tests look at under a running process (the store itself); front ends' code may not.
      ["@iris/host/testing", fileURLToPath(new URL("./packages/host/src/testing.ts", import.meta.url))],
      ...pkgs.map((p) => [
        `@iris/${p}`,
        fileURLToPath(new URL(`./packages/${p}/src/index.ts`, import.meta.url)),
      ]),
    ]),
  },
  test: {
    include: ["packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts", "scripts/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Vitest's default on a 2-core machine is one worker (cores - 1), and most e2e files wait on
    // child processes and sockets: two workers took the suite from ~30 to ~20 minutes here.
    maxWorkers: 2,
    reporters: ["default", summaryLine],
  },
});
