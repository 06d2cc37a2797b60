import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const pkgs = ["llm", "store", "tools", "agent", "iris", "testkit"];

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of every workspace package, not their dist.
    alias: Object.fromEntries(
      pkgs.map((p) => [
        `@iris/${p}`,
        fileURLToPath(new URL(`./packages/${p}/src/index.ts`, import.meta.url)),
      ]),
    ),
  },
  test: {
    include: ["packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts", "scripts/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
