// The editor's view of config.yaml, generated from the zod schema (the single source). Checked in
// as packages/host/config.schema.json; a test fails when it drifts, and
// `node scripts/gen-config-schema.mjs` rewrites it.
import { z } from "zod";
import { configSchema } from "./schema.js";

export function configJsonSchema(): Record<string, unknown> {
  // io "input": keys with defaults are optional for the person writing the file.
  const schema = z.toJSONSchema(configSchema, { target: "draft-7", io: "input" });
  return {
    ...schema,
    title: "Iris config.yaml",
    description:
      "Iris profile configuration. Add `# yaml-language-server: $schema=<path to this file>` at the top of config.yaml for completion and checks in your editor.",
  };
}

/** The exact text of config.schema.json (stable key order, trailing newline). */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
