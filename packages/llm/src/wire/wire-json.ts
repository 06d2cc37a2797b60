// A request body as JSON text, with the parts that repeat from request to request serialised once.
// The tool schemas are most of a request's bytes (≈ 8 KB of a 9 KB first request) and the same
// objects every round and every session (the menu's specs): serialising them again for each call
// was the largest single cost of an API server's stateless request of its own.
import type { ToolSpec } from "../types.js";

/** JSON text of frozen wire parts, kept while the part lives. */
const serialised = new WeakMap<object, string>();

/**
 * `convert` once per tool spec: the wire tool is frozen (nothing may change it after its JSON is
 * kept) and reused while the spec lives. A spec is never changed in place: a new schema (an MCP
 * server's refresh) is a new spec.
 */
export function perSpec<T extends object>(convert: (spec: ToolSpec) => T): (spec: ToolSpec) => T {
  const made = new WeakMap<ToolSpec, T>();
  return (spec) => {
    let wire = made.get(spec);
    if (wire === undefined) {
      wire = Object.freeze(convert(spec));
      serialised.set(wire, JSON.stringify(wire));
      made.set(spec, wire);
    }
    return wire;
  };
}

/**
 * `JSON.stringify(body)`, byte for byte, with the kept JSON of reused parts in its top-level arrays.
 */
export function bodyJson(body: Record<string, unknown>): string {
  const fields: string[] = [];
  for (const key of Object.keys(body)) {
    const value = body[key];
    const json = Array.isArray(value) ? arrayJson(value) : JSON.stringify(value);
    // As JSON.stringify does: a key whose value has no JSON (undefined, a function) is left out.
    if (json !== undefined) fields.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${fields.join(",")}}`;
}

function arrayJson(items: readonly unknown[]): string {
  const parts = items.map((item) => {
    const kept = typeof item === "object" && item !== null ? serialised.get(item) : undefined;
    // As JSON.stringify does: an element with no JSON is null.
    return kept ?? JSON.stringify(item) ?? "null";
  });
  return `[${parts.join(",")}]`;
}
