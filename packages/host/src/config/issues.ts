// Turns zod's issues into short messages a person can act on: the key path, what was expected,
// what was found. Values are echoed only for enum/format mismatches, and never for secret fields.
import type { z } from "zod";

/** `fallback_providers[0].model`, `providers["my.host"].base_url`. */
export function formatKeyPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else {
      const s = String(seg);
      if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(s)) out += out ? `.${s}` : s;
      else out += `[${JSON.stringify(s)}]`;
    }
  }
  return out || "(top level)";
}

export function describeValue(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null (an empty value)";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a mapping";
  return typeof v;
}

const SECRET_FIELD = /^(?:api_key|headers|env)$|token|secret|password/i;

function quoteValue(path: readonly PropertyKey[], v: unknown): string {
  if (path.some((s) => typeof s === "string" && SECRET_FIELD.test(s))) return describeValue(v);
  if (typeof v !== "string") return JSON.stringify(v) ?? describeValue(v);
  const s = v.length > 40 ? `${v.slice(0, 37)}...` : v;
  return JSON.stringify(s);
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = data;
  for (const seg of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

interface Def {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  innerType?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
  element?: z.core.$ZodType;
}

function defOf(s: z.core.$ZodType): Def {
  // zod 4 keeps a schema's structure on `_zod.def`; only the fields read here are typed.
  return s._zod.def as unknown as Def;
}

/** The keys an object at `path` accepts (for "did you mean"), or [] when it is not an object. */
export function allowedKeysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  let cur: z.core.$ZodType | undefined = schema;
  const segs = [...path];
  while (cur) {
    const def = defOf(cur);
    if (def.innerType) {
      cur = def.innerType;
      continue;
    }
    const seg = segs.shift();
    if (seg === undefined) return def.type === "object" && def.shape ? Object.keys(def.shape) : [];
    if (def.type === "object") cur = def.shape?.[String(seg)];
    else if (def.type === "record") cur = def.valueType;
    else if (def.type === "array") cur = def.element;
    else return [];
  }
  return [];
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

export function unknownKeyMessage(key: string, allowed: readonly string[]): string {
  const close = allowed
    .map((k) => ({ k, d: editDistance(key.toLowerCase(), k.toLowerCase()) }))
    .filter((x) => x.d <= Math.max(2, Math.floor(key.length / 3)))
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k));
  if (close[0]) return `unknown key (did you mean "${close[0].k}"?)`;
  if (allowed.length > 0) return `unknown key (expected one of: ${allowed.join(", ")})`;
  return "unknown key";
}

/** How YAML spells a number that is not finite. */
function yamlNumber(n: number): string {
  if (Number.isNaN(n)) return ".nan (not a number)";
  return n > 0 ? ".inf (infinity)" : "-.inf (minus infinity)";
}

function bound(issue: { minimum?: unknown; maximum?: unknown; inclusive?: boolean }, dir: "min" | "max") {
  const n = dir === "min" ? issue.minimum : issue.maximum;
  const op = dir === "min" ? (issue.inclusive ? ">=" : ">") : issue.inclusive ? "<=" : "<";
  return `${op} ${String(n)}`;
}

/** The "expected …, got …" part for one issue (the key path is printed separately). */
export function issueMessage(issue: z.core.$ZodIssue, data: unknown): string {
  const actual = valueAt(data, issue.path);
  switch (issue.code) {
    case "invalid_type":
      if (actual === undefined) return `missing required key (expected ${issue.expected})`;
      // YAML's .nan/.inf are numbers to JavaScript, but not ones a setting can hold.
      if (typeof actual === "number" && !Number.isFinite(actual))
        return `expected a finite number, got ${yamlNumber(actual)}`;
      if (issue.expected === "int" && typeof actual === "number")
        return `expected a whole number, got ${quoteValue(issue.path, actual)}`;
      return `expected ${issue.expected}, got ${describeValue(actual)}`;
    case "invalid_value":
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, got ${quoteValue(issue.path, actual)}`;
    case "too_small":
      if (issue.origin === "string") return `expected a non-empty string`;
      if (issue.origin === "array") return `expected a list with ${bound(issue, "min")} items`;
      return `expected a number ${bound(issue, "min")}, got ${quoteValue(issue.path, actual)}`;
    case "too_big":
      if (issue.origin === "array") return `expected a list with ${bound(issue, "max")} items`;
      return `expected a number ${bound(issue, "max")}, got ${quoteValue(issue.path, actual)}`;
    case "invalid_format": {
      const what =
        issue.format === "url"
          ? "an http(s) URL"
          : issue.format === "regex"
            ? issue.message || "a matching string"
            : `a ${issue.format} string`;
      return `expected ${what}, got ${quoteValue(issue.path, actual)}`;
    }
    case "not_multiple_of":
      return `expected a multiple of ${String(issue.divisor)}`;
    default:
      return issue.message;
  }
}
