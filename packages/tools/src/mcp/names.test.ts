// Tool names within every provider's limits: [A-Za-z0-9_-], at most 64, distinct when cut.
import { describe, expect, it } from "vitest";
import { jsonSchemaParameters } from "../json-schema/parameters.js";
import { MAX_TOOL_NAME, mcpToolName } from "./names.js";

describe("mcpToolName", () => {
  it("namespaces and cleans", () => {
    expect(mcpToolName("github", "create_issue")).toBe("mcp__github__create_issue");
    expect(mcpToolName("my.server", "get file/v2")).toBe("mcp__my_server__get_file_v2");
  });

  it("cuts long names to 64 with a hash, so two long names never collide", () => {
    const a = mcpToolName("a-very-long-server-name", "an_extremely_long_tool_name_that_goes_on_and_on_1");
    const b = mcpToolName("a-very-long-server-name", "an_extremely_long_tool_name_that_goes_on_and_on_2");
    expect(a.length).toBe(MAX_TOOL_NAME);
    expect(b.length).toBe(MAX_TOOL_NAME);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});

describe("jsonSchemaParameters", () => {
  it("drops $schema, keeps an object schema, and validates with field names", () => {
    const p = jsonSchemaParameters({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { n: { type: "integer", minimum: 1 } },
      required: ["n"],
    });
    expect(p.schema.$schema).toBeUndefined();
    expect(p.validate({ n: 2 })).toEqual({ ok: true, value: { n: 2 } });
    expect(p.validate({ n: 0 })).toMatchObject({ ok: false, message: expect.stringContaining("'n'") });
    expect(p.validate({})).toMatchObject({ ok: false, message: expect.stringContaining("'n'") });
    expect(p.validate([1])).toMatchObject({ ok: false });
  });

  it("a missing schema becomes an empty object schema", () => {
    expect(jsonSchemaParameters(undefined).schema).toEqual({ type: "object" });
  });
});
