#!/usr/bin/env node
// Writes packages/host/config.schema.json from the zod schema of config.yaml (gateway.platforms
// from the gateway's platform plugins), formatted by Biome.
// `--check` exits 1 when the checked-in file means something else (the drift test in
// packages/host/src/config/json-schema.test.ts does the same in Vitest). Formatting is ignored.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { register } from "tsx/esm/api";

register();
const target = fileURLToPath(new URL("../packages/host/config.schema.json", import.meta.url));
// gateway.platforms is composed from the gateway's platform plugins (their config.ts schemas).
const { registerGatewayPlatforms } = await import("../packages/gateway/src/platform-configs.ts");
registerGatewayPlatforms();
const { configJsonSchema, configJsonSchemaText } = await import("../packages/host/src/config/json-schema.ts");
if (process.argv.includes("--check")) {
  let current;
  try {
    current = JSON.parse(readFileSync(target, "utf8"));
  } catch {}
  if (!isDeepStrictEqual(current, JSON.parse(JSON.stringify(configJsonSchema())))) {
    process.stderr.write(
      "packages/host/config.schema.json is out of date: run node scripts/gen-config-schema.mjs\n",
    );
    process.exit(1);
  }
} else {
  writeFileSync(target, configJsonSchemaText());
  spawnSync("npx", ["biome", "format", "--write", target], { stdio: "ignore" });
  process.stderr.write("wrote packages/host/config.schema.json\n");
}
