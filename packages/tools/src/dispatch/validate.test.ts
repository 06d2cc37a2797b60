import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseArguments } from "./validate.js";

// z.json() walks the value recursively, as a real tool schema of nested objects does.
const schema = z.object({ value: z.json() });

describe("parseArguments", () => {
  it("refuses arguments nested 20,000 deep with a message, not a stack overflow", () => {
    const deep = `{"value":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    const parsed = parseArguments(schema, deep);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(/nested deeper than 128 levels/);
  });

  it("still takes ordinary nesting", () => {
    expect(parseArguments(schema, `{"value":${"[".repeat(50)}${"]".repeat(50)}}`).ok).toBe(true);
  });
});
