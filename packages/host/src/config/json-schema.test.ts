import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configJsonSchema } from "./json-schema.js";

describe("config.schema.json", () => {
  it("matches the zod schema (run `node scripts/gen-config-schema.mjs` after changing it)", () => {
    const checkedIn = JSON.parse(readFileSync(new URL("../../config.schema.json", import.meta.url), "utf8"));
    // Compared as data: Biome may format the file as it likes. `gateway.platforms` is composed
    // from the gateway's platform plugins (the gateway's own test compares it).
    const withoutPlatforms = (s: { properties: { gateway: { properties: Record<string, unknown> } } }) => {
      delete s.properties.gateway.properties["platforms"];
      return s;
    };
    expect(withoutPlatforms(checkedIn)).toEqual(
      withoutPlatforms(JSON.parse(JSON.stringify(configJsonSchema()))),
    );
  });

  it("is draft-7, strict, and does not require keys that have defaults", () => {
    const s = configJsonSchema() as {
      $schema: string;
      additionalProperties: boolean;
      required?: string[];
      properties: Record<string, { additionalProperties?: unknown; required?: string[] }>;
    };
    expect(s.$schema).toContain("draft-07");
    expect(s.additionalProperties).toBe(false);
    expect(s.required ?? []).toEqual([]);
    expect(s.properties["approvals"]?.additionalProperties).toBe(false);
    expect(s.properties["approvals"]?.required ?? []).toEqual([]);
  });
});
