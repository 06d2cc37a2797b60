import { describe, expect, it } from "vitest";
import type { ToolSpec } from "../types.js";
import { bodyJson, perSpec, perSpecList } from "./wire-json.js";

const spec = (name: string): ToolSpec => ({
  name,
  description: `the ${name} tool: "quoted" \\ and \u00e9`,
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
});

describe("bodyJson", () => {
  it("writes what JSON.stringify writes, byte for byte", () => {
    const wire = perSpec((t) => ({ type: "function", function: { name: t.name, parameters: t.parameters } }));
    const tools = [wire(spec("read_file")), wire(spec("terminal"))];
    const bodies: Record<string, unknown>[] = [
      {},
      { model: "m", tools, stream: true, messages: [{ role: "user", content: "hi \n \u2028" }] },
      { a: undefined, b: () => 1, c: null, d: [undefined, () => 1, 1, "x", { e: undefined }], f: { g: [] } },
      { tools: [], 'key "quoted"': 1, n: Number.NaN, date: new Date(0) },
    ];
    for (const body of bodies) expect(bodyJson(body)).toBe(JSON.stringify(body));
  });

  it("reuses a spec's wire tool and its JSON, and the kept tool cannot be changed", () => {
    let made = 0;
    const wire = perSpec((t) => {
      made++;
      return { name: t.name };
    });
    const s = spec("read_file");
    const first = wire(s);
    expect(wire(s)).toBe(first);
    expect(made).toBe(1);
    expect(() => {
      (first as { name: string }).name = "other";
    }).toThrow(TypeError);
    expect(bodyJson({ tools: [first] })).toBe('{"tools":[{"name":"read_file"}]}');
    // Another spec with the same name is its own tool (a refreshed schema is a new spec).
    expect(wire(spec("read_file"))).not.toBe(first);
  });

  it("keeps a list of specs' wire form and its JSON, and makes it again when the list changed", () => {
    const wire = perSpecList((t) => ({ type: "function", name: t.name, parameters: t.parameters }));
    const specs = [spec("read_file"), spec("terminal")];
    const first = wire(specs);
    expect(wire(specs)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    const body = { model: "m", tools: first, messages: [{ role: "user", content: "hi" }] };
    expect(bodyJson(body)).toBe(JSON.stringify(body));
    // The same array holding other specs (never meant to happen) is not taken for the kept one.
    specs[1] = spec("write_file");
    const again = wire(specs);
    expect(again).not.toBe(first);
    expect(bodyJson({ tools: again })).toBe(JSON.stringify({ tools: again }));
    expect(bodyJson({ tools: again })).toContain("write_file");
  });
});
