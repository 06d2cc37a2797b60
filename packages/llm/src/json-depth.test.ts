import { describe, expect, it } from "vitest";
import { JsonDepthError, jsonTooDeep, MAX_JSON_DEPTH, parseBoundedJson } from "./json-depth.js";

const nested = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;

describe("JSON depth bound", () => {
  it("accepts nesting up to the bound and refuses one level more, saying where", () => {
    expect(jsonTooDeep(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(jsonTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(
      `JSON nested deeper than ${MAX_JSON_DEPTH} levels (objects and arrays, at character ${MAX_JSON_DEPTH + 1})`,
    );
    expect(jsonTooDeep('{"a":{"b":[1]}}', 3)).toBeUndefined();
    expect(jsonTooDeep('{"a":{"b":[1]}}', 2)).toMatch(/deeper than 2/);
  });
  it("does not count brackets inside strings, escaped quotes included", () => {
    expect(jsonTooDeep(JSON.stringify({ s: `\\"${"[".repeat(500)}` }), 2)).toBeUndefined();
    expect(jsonTooDeep(JSON.stringify({ s: '"{{{' }), 1)).toBeUndefined();
  });
  it("parses what is within the bound and throws a JsonDepthError on a 20,000-deep text", () => {
    expect(parseBoundedJson('{"a":[1,2]}')).toEqual({ a: [1, 2] });
    expect(() => parseBoundedJson(nested(20_000))).toThrow(JsonDepthError);
    expect(() => parseBoundedJson("{")).toThrow(SyntaxError);
  });
});
