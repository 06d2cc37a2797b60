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
 * perSpec for a whole list, kept per list of specs too (a menu's specs are one array from request
 * to request): the list's JSON is then one kept string. A list whose specs changed since (it is
 * never meant to) is made again.
 */
export function perSpecList<T extends object>(
  convert: (spec: ToolSpec) => T,
): (specs: readonly ToolSpec[]) => readonly T[] {
  const one = perSpec(convert);
  const lists = new WeakMap<readonly ToolSpec[], { specs: readonly ToolSpec[]; wire: readonly T[] }>();
  return (specs) => {
    const hit = lists.get(specs);
    if (hit && hit.specs.length === specs.length && hit.specs.every((s, i) => s === specs[i]))
      return hit.wire;
    const wire = Object.freeze(specs.map(one));
    serialised.set(wire, arrayJson(wire));
    lists.set(specs, { specs: [...specs], wire });
    return wire;
  };
}

/**
 * `JSON.stringify(body)`, byte for byte, with the kept JSON of reused parts: a top-level value, or
 * the elements of a top-level array.
 */
export function bodyJson(body: Record<string, unknown>): string {
  // Joined once from its pieces: a flat string (concatenating would hand the sender a rope that
  // Buffer.byteLength and the socket write each copy flat again).
  const pieces = ["{"];
  for (const key of Object.keys(body)) {
    const value = body[key];
    const kept = typeof value === "object" && value !== null ? serialised.get(value) : undefined;
    const json = kept ?? (Array.isArray(value) ? arrayJson(value) : JSON.stringify(value));
    // As JSON.stringify does: a key whose value has no JSON (undefined, a function) is left out.
    if (json === undefined) continue;
    if (pieces.length > 1) pieces.push(",");
    pieces.push(JSON.stringify(key), ":", json);
  }
  pieces.push("}");
  return pieces.join("");
}

function arrayJson(items: readonly unknown[]): string {
  const parts = items.map((item) => {
    const kept = typeof item === "object" && item !== null ? serialised.get(item) : undefined;
    // As JSON.stringify does: an element with no JSON is null.
    return kept ?? JSON.stringify(item) ?? "null";
  });
  return `[${parts.join(",")}]`;
}
